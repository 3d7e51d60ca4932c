"""The stand-in's code scanning alerts (`GET /repos/{o}/{r}/code-scanning/alerts`).

Alerts are set up with `add_alert`, then dismissed, reopened or fixed as a user or a new
analysis would. The list filters by `state` and pages like GitHub. `enabled = False`
answers as a repository without code scanning does (404 "no analysis found");
`token_may_read = False` as a token without `security-events: read` (403); `raw_next`
serves the given bodies verbatim first (a broken proxy, a truncated answer).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Mapping
from datetime import UTC, datetime
from typing import Any

from riverbed.testing.github.objects import JSON, Site, basic_error, fake_sha, timestamp
from riverbed.testing.github.paging import Response, json_response, paginate

STATES = ("open", "dismissed", "fixed")
DISMISSED_REASONS = ("false positive", "won't fix", "used in tests")


class CodeScanningRoutes:
    """Alerts of the served repository, answered as GitHub's `code-scanning-alert-items`."""

    def __init__(
        self, site: Site, user: Callable[[str], JSON], clock: Callable[[], datetime]
    ) -> None:
        self.site = site
        self._user = user
        self._clock = clock
        self._alerts: dict[int, JSON] = {}
        self._lock = threading.Lock()
        self.enabled = True
        self.token_may_read = True
        self.raw_next: list[tuple[int, bytes]] = []

    def _now(self) -> str:
        return timestamp(self._clock().astimezone(UTC))

    def add_alert(
        self,
        *,
        rule_id: str | None,
        path: str,
        severity: str | None = "warning",
        security_severity_level: str | None = None,
        tool: str = "CodeQL",
        line: int = 1,
    ) -> int:
        """An open alert of `rule_id` at `path`; returns its number."""
        with self._lock:
            number = max(self._alerts, default=0) + 1
            rule: JSON = {
                "id": rule_id,
                "name": (rule_id or "rule").rsplit("/", 1)[-1],
                "severity": severity,
                "tags": ["security"],
                "description": f"rule {rule_id}",
            }
            if security_severity_level is not None:
                rule["security_severity_level"] = security_severity_level
            self._alerts[number] = {
                "number": number,
                "created": self._now(),
                "state": "open",
                "rule": rule,
                "tool": {"name": tool, "version": "2.20.0", "guid": None},
                "path": path,
                "line": line,
                "dismissed_by": None,
                "dismissed_reason": None,
                "dismissed_comment": None,
                "dismissed_at": None,
                "fixed_at": None,
            }
            return number

    def dismiss(self, number: int, reason: str, comment: str | None, login: str) -> None:
        """Dismiss alert `number` as `login` would in the Security tab."""
        if reason not in DISMISSED_REASONS:
            raise ValueError(f"dismissed_reason must be one of {DISMISSED_REASONS}")
        with self._lock:
            alert = self._alerts[number]
            alert.update(state="dismissed", dismissed_reason=reason, dismissed_comment=comment)
            alert.update(dismissed_by=login, dismissed_at=self._now())

    def reopen(self, number: int) -> None:
        """Reopen a dismissed alert (GitHub clears the dismissal fields)."""
        with self._lock:
            alert = self._alerts[number]
            alert.update(state="open", dismissed_reason=None, dismissed_comment=None)
            alert.update(dismissed_by=None, dismissed_at=None)

    def fix(self, number: int) -> None:
        """A new analysis no longer finds an open alert."""
        with self._lock:
            self._alerts[number].update(state="fixed", fixed_at=self._now())

    def edit(self, number: int, **fields: Any) -> None:
        """Overwrite stored fields as they are served (tests of hostile or odd values)."""
        with self._lock:
            self._alerts[number].update(fields)

    def list_alerts(self, path: str, query: Mapping[str, str]) -> Response:
        """GET /repos/{o}/{r}/code-scanning/alerts[?state=&per_page=&page=]."""
        with self._lock:
            if self.raw_next:
                status, body = self.raw_next.pop(0)
                return Response(status, body, {"Content-Type": "application/json"})
            refused = self._refusal()
            if refused is not None:
                return refused
            state = query.get("state")
            if state is not None and state not in (*STATES, "closed"):
                return json_response(400, basic_error(f"invalid state {state!r}", 400))
            wanted = ("dismissed", "fixed") if state == "closed" else (state,) if state else None
            records = [a for a in self._alerts.values() if wanted is None or a["state"] in wanted]
            items = [self._alert_json(a) for a in sorted(records, key=lambda a: -a["number"])]
        return paginate(items, self.site.api_url, path, query)

    def _refusal(self) -> Response | None:
        if not self.token_may_read:
            return json_response(403, basic_error("Resource not accessible by integration", 403))
        if not self.enabled:
            return json_response(404, basic_error("no analysis found", 404))
        return None

    def get_alert(self, path: str, query: Mapping[str, str], number: str) -> Response:
        """GET /repos/{o}/{r}/code-scanning/alerts/{n} (404 when there is no such alert)."""
        with self._lock:
            if self.raw_next:
                status, body = self.raw_next.pop(0)
                return Response(status, body, {"Content-Type": "application/json"})
            refused = self._refusal()
            if refused is not None:
                return refused
            alert = self._alerts.get(int(number))
            if alert is None:
                return json_response(404, basic_error("Not Found", 404))
            return json_response(200, self._alert_json(alert))

    def delete(self, number: int) -> None:
        """Forget alert `number` (as deleting its analyses does)."""
        with self._lock:
            del self._alerts[number]

    def _alert_json(self, alert: JSON) -> JSON:
        number = alert["number"]
        api = f"{self.site.repo_api}/code-scanning/alerts/{number}"
        sha = fake_sha(f"alert-{number}")
        login = alert["dismissed_by"]
        return {
            "number": number,
            "created_at": alert["created"],
            "updated_at": alert["dismissed_at"] or alert["fixed_at"] or alert["created"],
            "url": api,
            "html_url": f"{self.site.repo_web}/security/code-scanning/{number}",
            "instances_url": f"{api}/instances",
            "state": alert["state"],
            "fixed_at": alert["fixed_at"],
            "dismissed_by": self._user(login) if login else None,
            "dismissed_at": alert["dismissed_at"],
            "dismissed_reason": alert["dismissed_reason"],
            "dismissed_comment": alert["dismissed_comment"],
            "rule": alert["rule"],
            "tool": alert["tool"],
            "most_recent_instance": {
                "ref": "refs/heads/main",
                "analysis_key": ".github/workflows/codeql.yml:analyze",
                "environment": "{}",
                "category": ".github/workflows/codeql.yml:analyze/language:python",
                "state": alert["state"],
                "commit_sha": sha,
                "message": {"text": f"{alert['rule']['name']} here"},
                "location": {
                    "path": alert["path"],
                    "start_line": alert["line"],
                    "end_line": alert["line"],
                    "start_column": 1,
                    "end_column": 10,
                },
                "classifications": [],
            },
            "dismissal_approved_by": None,
            "assignees": [],
        }
