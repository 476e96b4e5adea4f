#!/usr/bin/env python3
"""GPU idle per training step that waited for the host's launches, from a gpuprof recording.

  launch_idle_per_step.py TRACE [--warmup N]

Answers issue 36's question for CUDA graphs: after the persistent RNN algorithm, does the
step still leave the GPU idle waiting for launches? Each piece of GPU work (kernels, copies,
memsets) belongs to the step in whose "step N" range its launching call started (as in
kernel_time_per_step.py); steps numbered below --warmup are left out. Per device, work is taken
in start order; a gap is the time from the end of all earlier work to the next start, and
belongs to the next work's step (so the gap between two steps is the later one's; the first
timed step's leading gap, after the warm-up's wait, is left out). A gap is launch-bound when
the next work's call started after the GPU had gone idle (the GPU waited for the host to launch
it); otherwise the work was queued and held by something else (a dependency, a graph's own
scheduling). Work a CUDA graph runs shares its cudaGraphLaunch call, which starts before the
graph's first node: the gaps inside a graph are never launch-bound. A step's span runs from the
end of the work before it to the end of its own.

Prints "launch-bound idle ms/step X of span Y (P %), other idle Z over N steps (W works/step)",
or says why it cannot. The query is QUERY below (SQLite 3.25 or newer, window functions);
the GPU machine has no sqlite3 shell, so it runs here with python's sqlite3.
"""
import argparse
import sqlite3
import sys

QUERY = """
with steps as (
  select cast(substr(s.value, 6) as integer) as step, r.start_ns as first_ns, r.end_ns as last_ns
  from ranges r join strings s on s.id = r.name_id
  where r.on_gpu = 0 and s.value glob 'step [0-9]*'),
calls as (select correlation_id, min(start_ns) as call_ns from api_calls group by correlation_id),
work as (
  select device, start_ns, end_ns, correlation_id from kernels
  union all select device, start_ns, end_ns, correlation_id from memcpys
  union all select device, start_ns, end_ns, correlation_id from memsets),
placed as (
  select st.step, w.device, w.start_ns, w.end_ns, c.call_ns
  from work w join calls c on c.correlation_id = w.correlation_id
  join steps st on c.call_ns between st.first_ns and st.last_ns),
ordered as (
  select step, device, start_ns, end_ns, call_ns,
         max(end_ns) over (partition by device order by start_ns, end_ns
                           rows between unbounded preceding and 1 preceding) as busy_until,
         lag(step) over (partition by device order by start_ns, end_ns) as previous_step
  from placed)
select step, device, count(*) as works,
       max(end_ns) - min(case when previous_step >= :warmup then busy_until else start_ns end) as span_ns,
       sum(case when previous_step >= :warmup and start_ns > busy_until and call_ns > busy_until
                then start_ns - busy_until else 0 end) as launch_idle_ns,
       sum(case when previous_step >= :warmup and start_ns > busy_until and call_ns <= busy_until
                then start_ns - busy_until else 0 end) as other_idle_ns
from ordered where step >= :warmup
group by step, device order by step, device
"""


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("trace")
    parser.add_argument("--warmup", type=int, default=0, help="steps numbered below this are left out")
    a = parser.parse_args()
    try:
        database = sqlite3.connect(f"file:{a.trace}?mode=ro", uri=True)
        rows = database.execute(QUERY, {"warmup": a.warmup}).fetchall()
    except sqlite3.Error as error:
        print(f"launch_idle_per_step.py: cannot read {a.trace}: {error}", file=sys.stderr)
        return 2
    if not rows:
        print(f"launch_idle_per_step.py: {a.trace} has no GPU work in a 'step N' range numbered {a.warmup} or more",
              file=sys.stderr)
        return 1
    count = len(rows)
    works = sum(row[2] for row in rows)
    span = sum(row[3] for row in rows)
    launch_idle = sum(row[4] for row in rows)
    other_idle = sum(row[5] for row in rows)
    share = 100.0 * launch_idle / span if span > 0 else 0.0
    print(f"launch-bound idle ms/step {launch_idle / count / 1e6:.3f} of span {span / count / 1e6:.3f} "
          f"({share:.0f} %), other idle {other_idle / count / 1e6:.3f} over {count} steps "
          f"({works / count:.0f} works/step)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
