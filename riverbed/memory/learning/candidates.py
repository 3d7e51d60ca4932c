"""Promotion candidates: one entry per cluster, offered, superseded as it grows (pure)."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Final

from riverbed.errors import EntryNotFoundError
from riverbed.index.build import build_entry
from riverbed.index.model import Context, Entry, Index, context, entries_by_id, entry_status
from riverbed.memory.learning.model import Cluster, Insights

CANDIDATE_TYPE: Final = "promotion_candidate"
#: Who writes candidates: the analysis, never a person or a model.
CANDIDATE_AUTHOR: Final = "riverbed"
#: What a candidate's history says about its cluster now.
STATES: Final = ("offered", "declined", "promoted")


@dataclass(frozen=True)
class Offer:
    """Where a cluster stands: its newest candidate, that candidate's state, its re-offers."""

    cluster_id: str
    entry: Entry
    state: str
    re_offers: int

    @property
    def prs(self) -> frozenset[int]:
        """The pull requests of the newest candidate's evidence."""
        return frozenset(n for n in context(self.entry).get("prs", []) if isinstance(n, int))

    @property
    def promoted_to(self) -> str | None:
        """The entry a promoted candidate became."""
        return str(self.entry.get("supersededBy")) if self.state == "promoted" else None

    @property
    def declined_reason(self) -> str | None:
        """Why a declined candidate was declined."""
        declined = context(self.entry).get("declined")
        return str(declined.get("reason")) if isinstance(declined, dict) else None

    def describe(self) -> str:
        """One line for tables: the state, with its reason or link and the re-offer count."""
        again = f"; re-offered {self.re_offers}×" if self.re_offers else ""
        if self.state == "declined":
            return f"declined: {self.declined_reason}{again}"
        if self.state == "promoted":
            return f"promoted to {self.promoted_to}{again}"
        return f"offered as {self.entry['id']}{again}"


def candidates_of(index: Index, entries: Sequence[Entry] | None = None) -> dict[str, list[Entry]]:
    """Cluster id → its candidate entries in file order (read from `entries` when given)."""
    out: dict[str, list[Entry]] = {}
    for entry in index.get("entries", []) if entries is None else entries:
        if entry.get("type") == CANDIDATE_TYPE:
            key = context(entry).get("clusterId")
            if isinstance(key, str):
                out.setdefault(key, []).append(entry)
    return out


def _state(entry: Entry, by_id: dict[str, Entry]) -> str:
    status = entry_status(entry)
    if status == "archived" and isinstance(context(entry).get("declined"), dict):
        return "declined"
    if status == "superseded":
        successor = by_id.get(str(entry.get("supersededBy")))
        if successor is not None and successor.get("type") != CANDIDATE_TYPE:
            return "promoted"
    return "offered" if status == "active" else status


def offers(index: Index, candidates: Sequence[Entry] | None = None) -> dict[str, Offer]:
    """Cluster id → its newest candidate and that candidate's state.

    `candidates`: the index's promotion candidates in file order, when the caller has them.
    """
    newest_of: dict[str, Entry] = {}
    for cluster_id, entries in candidates_of(index, candidates).items():
        # The newest candidate no other candidate of the cluster superseded (file order).
        replaced = _predecessors(entries)
        heads = [e for e in entries if e["id"] not in replaced]
        newest_of[cluster_id] = heads[-1] if heads else entries[-1]
    # Only a superseded newest candidate needs its successor: those alone are looked up.
    wanted = {
        str(e.get("supersededBy")) for e in newest_of.values() if entry_status(e) == "superseded"
    }
    by_id = _entries_named(index, wanted) if wanted else {}
    out: dict[str, Offer] = {}
    for cluster_id, newest in newest_of.items():
        re_offers = context(newest).get("reOffers")
        out[cluster_id] = Offer(
            cluster_id,
            newest,
            _state(newest, by_id),
            re_offers if isinstance(re_offers, int) else 0,
        )
    return out


def _entries_named(index: Index, ids: set[str]) -> dict[str, Entry]:
    """The entries among `ids`, as `entries_by_id` maps them (the last of an id wins)."""
    return {
        e["id"]: e
        for e in index.get("entries", [])
        if isinstance(e, dict) and "id" in e and e["id"] in ids
    }


def _predecessors(entries: Sequence[Entry]) -> set[str]:
    """Ids of candidates another candidate of the same cluster superseded."""
    ids = {e["id"] for e in entries}
    return {e["id"] for e in entries if str(e.get("supersededBy")) in ids}


def resolve(index: Index, given: str) -> Offer:
    """The offer named by a candidate id or a cluster id; EntryNotFoundError otherwise."""
    table = offers(index)
    if given in table:
        return table[given]
    entry = entries_by_id(index).get(given)
    if entry is not None and entry.get("type") == CANDIDATE_TYPE:
        cluster = context(entry).get("clusterId")
        if isinstance(cluster, str) and cluster in table:
            return table[cluster]
    raise EntryNotFoundError(
        f"no promotion candidate {given!r} in memory (list them with `riverbed insights`; "
        "candidates are written by the scheduled job or `riverbed insights --write`)"
    )


def _entry_id(cluster: Cluster, taken: set[str]) -> str:
    digest = hashlib.sha256(",".join(map(str, cluster.prs)).encode()).hexdigest()[:6]
    base = f"{cluster.cluster_id}-{digest}"
    candidate, n = base, 2
    while candidate in taken:
        candidate, n = f"{base}-{n}", n + 1
    return candidate


def _content(cluster: Cluster, previous: Offer | None) -> str:
    label = f"rule {cluster.key}" if cluster.kind == "rule" else f"finding {cluster.key}"
    lines = [
        f"{label} was suppressed in {cluster.weight} distinct pull requests "
        f"({', '.join(f'#{n}' for n in cluster.prs)}) "
        f"by {', '.join(cluster.authors) or 'unknown'}.",
        f"Suggested {cluster.suggestion.kind}: {cluster.suggestion.command}",
    ]
    lines += [f"{c.tool} ({c.file}):\n{c.text}" for c in cluster.suggestion.configs]
    if previous is not None and previous.state == "declined":
        lines.append(
            f"Re-offered: declined before ({previous.declined_reason}); new pull requests "
            f"joined: {', '.join(f'#{n}' for n in sorted(set(cluster.prs) - previous.prs))}."
        )
    lines.append(
        "Offered, never applied by itself: `riverbed promote ID` or `riverbed decline ID`."
    )
    return "\n".join(lines)


def build_candidate(
    cluster: Cluster, *, now: datetime, min_prs: int, previous: Offer | None, taken: set[str]
) -> Entry:
    """The candidate entry for a cluster, with its evidence in `context`."""
    re_offers = 0
    if previous is not None:
        re_offers = previous.re_offers + (1 if previous.state == "declined" else 0)
    ctx: Context = {
        "clusterId": cluster.cluster_id,
        "clusterKind": cluster.kind,
        "clusterKey": cluster.key,
        "weight": cluster.weight,
        "minPrs": min_prs,
        "prs": list(cluster.prs),
        "authors": list(cluster.authors),
        "suppressionIds": list(cluster.suppression_ids),
        "files": list(cluster.files),
        "severities": list(cluster.severities),
        "suggestion": cluster.suggestion.as_dict(),
        "reOffers": re_offers,
    }
    if previous is not None:
        ctx["previous"] = {"id": previous.entry["id"], "state": previous.state}
        if previous.declined_reason is not None:
            ctx["previous"]["declinedReason"] = previous.declined_reason
    label = f"rule {cluster.key}" if cluster.kind == "rule" else f"finding {cluster.key}"
    return build_entry(
        type=CANDIDATE_TYPE,
        title=f"Promotion candidate: {label} suppressed in {cluster.weight} pull requests",
        content=_content(cluster, previous),
        author=CANDIDATE_AUTHOR,
        now=now,
        tags=["promotion-candidate", cluster.kind],
        entry_id=_entry_id(cluster, taken),
        context=ctx,
    )


@dataclass(frozen=True)
class CandidatePlan:
    """What writing candidates would do: new entries, supersessions, and every cluster's state."""

    new: tuple[Entry, ...]
    supersede: tuple[tuple[str, str], ...]
    states: dict[str, str]
    held: tuple[str, ...]

    def as_dict(self) -> dict[str, Any]:
        """JSON form."""
        return {
            "written": [e["id"] for e in self.new],
            "superseded": [{"old": old, "new": new} for old, new in self.supersede],
            "states": dict(self.states),
            "held": list(self.held),
        }


def plan_candidates(index: Index, insights: Insights) -> CandidatePlan:
    """New candidates for clusters without one, grown ones, and declined ones new PRs joined.

    A declined cluster is held (not offered again) until a pull request outside its declined
    evidence joins it; then it is re-offered with the count of re-offers.
    """
    table = offers(index)
    taken = set(entries_by_id(index))
    new: list[Entry] = []
    supersede: list[tuple[str, str]] = []
    states: dict[str, str] = {}
    held: list[str] = []
    for cluster in insights.clusters:
        previous = table.get(cluster.cluster_id)
        joined = set(cluster.prs) - (previous.prs if previous else frozenset())
        if previous is not None and not joined:
            states[cluster.cluster_id] = previous.describe()
            if previous.state == "declined":
                held.append(
                    f"{cluster.cluster_id}: declined ({previous.declined_reason}); not offered "
                    "again until a new pull request joins it"
                )
            continue
        entry = build_candidate(
            cluster,
            now=insights.now,
            min_prs=insights.thresholds.min_prs,
            previous=previous,
            taken=taken,
        )
        taken.add(entry["id"])
        new.append(entry)
        if previous is not None and previous.state == "offered":
            supersede.append((previous.entry["id"], entry["id"]))
        re_offers = context(entry)["reOffers"]
        again = f"; re-offered {re_offers}×" if re_offers else ""
        grew = " (grown)" if previous is not None and previous.state == "offered" else ""
        states[cluster.cluster_id] = f"offered as {entry['id']}{grew}{again}"
    return CandidatePlan(tuple(new), tuple(supersede), states, tuple(held))


def offer_states(index: Index, insights: Insights) -> dict[str, str]:
    """Cluster id → where its candidate stands, as memory holds it now (nothing written)."""
    table = offers(index)
    out: dict[str, str] = {}
    for cluster in insights.clusters:
        offer = table.get(cluster.cluster_id)
        if offer is None:
            out[cluster.cluster_id] = "no candidate written yet"
            continue
        joined = len(set(cluster.prs) - offer.prs)
        out[cluster.cluster_id] = offer.describe() + (
            f"; {joined} new pull request(s) since" if joined else ""
        )
    return out
