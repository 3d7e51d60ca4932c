"""The action's modes, one module each: persist, expire, review, comment."""
