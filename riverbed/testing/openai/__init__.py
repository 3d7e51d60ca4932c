"""A local OpenAI-compatible chat stand-in (`FakeOpenAI`) and its scripted replies."""
