"""The last good shared layer: kept by trusted runs, applied when the policy repository is out.

Persist mode keeps the layer it read (its policy and provenance) in this repository's
memory; review mode, when the policy repository cannot be read, applies that kept layer
and says so loudly. With none to apply it fails closed: every finding is protected, so no
suppression of this repository can hide a rule the organisation may protect.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

from riverbed.action.context import ActionContext
from riverbed.action.memory_job import AppendOutcome
from riverbed.action.restore import Restored
from riverbed.action.shared_memory import SharedOutcome, parse_shared_spec, shared_for_run
from riverbed.index.dates import format_timestamp
from riverbed.organisation.last_good import fail_closed_layer, last_good
from riverbed.organisation.record_last_good import keep_last_good
from riverbed.text import plural


def with_fallback(
    context: ActionContext, outcome: SharedOutcome, restored: Restored
) -> SharedOutcome:
    """`outcome`, or when its layer is unreachable the last good layer (else fail closed)."""
    if outcome.unreachable is None or outcome.layer is not None:
        return outcome
    spec = parse_shared_spec(context.config.input("shared-memory"), context.config.repository)
    assert spec is not None  # an unreachable outcome comes from a spec
    kept, why = last_good(restored.index, spec.repository)
    if restored.source != "artifact":
        # Only memory a trusted run uploaded may speak for the organisation: the base
        # branch's checked-in copy is any writer's to edit.
        kept, why = None, f"memory was restored from {restored.label}, not a trusted artifact"
    if kept is not None:
        made = kept.provenance
        text = (
            f"applied the last good shared layer of {made.repository}@{made.branch}, dated "
            f"{format_timestamp(made.layer_date)} (commit {(made.commit or '?')[:12]}, "
            f"{made.source}, run {made.run_id or '-'}), kept in this repository's memory as "
            f"{kept.entry_id}: {plural(len(kept.layer.never_suppress), 'never-suppress rule')}"
            f" and {plural(len(kept.layer.overrides), 'severity override')}; the policy "
            "repository's suppressions do not apply until it can be read again"
        )
        return dataclasses.replace(outcome, layer=kept.layer, fallback=text)
    text = (
        f"no last good shared layer to apply ({why}): failing closed, every suppression is "
        "held back (protected rules included, the findings stay in the review) until "
        f"{spec.repository} can be read again"
    )
    layer = fail_closed_layer(spec.repository)
    return dataclasses.replace(outcome, layer=layer, fallback=text)


def persist_shared_layer(context: ActionContext, index_path: Path) -> AppendOutcome:
    """Persist mode: keep the layer read now as the last good one (nothing when unreadable).

    A layer that could not be read never replaces the kept one: only a layer that came
    from a trusted run of the policy repository and parsed whole is written.
    """
    outcome = shared_for_run(context)
    runner = context.runner
    if outcome.layer is None or outcome.provenance is None:
        why = outcome.unreachable or "no shared-memory"
        line = f"shared layer: not kept ({why}); the last good one stays"
        runner.warning(line)
        return AppendOutcome(markdown=f"\n{line}.\n")
    kept = keep_last_good(index_path, outcome.layer, outcome.provenance, now=context.now)
    entry_id = str(kept.entry["id"])
    made = outcome.provenance
    where = f"{made.repository}@{made.branch} ({made.source}, commit {(made.commit or '?')[:12]})"
    if kept.written:
        line = f"shared layer: kept {where} as {entry_id}"
        if kept.superseded:
            line += f"; superseded {', '.join(kept.superseded)}"
    else:
        line = f"shared layer: {entry_id} already keeps {where}; nothing written"
    runner.info(line)
    return AppendOutcome(
        appended=(entry_id,) if kept.written else (),
        unchanged=() if kept.written else (entry_id,),
        markdown=f"\n{line}.\n",
    )
