#!/usr/bin/env python3
"""Per-call detail of usedlater.py (imported, unchanged): one JSON line per
call of a dump, with the needed tokens and those kept, so that a test can
compare another implementation token for token.

usage: usedlater_calls.py TRAJ_DIRS(comma) DUMP_DIR
"""
import json, os, sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import usedlater  # noqa: E402


def main():
    trajs = {}
    for d in sys.argv[1].split(","):
        for f in os.listdir(d):
            if f.endswith(".jsonl"):
                trajs[f] = os.path.join(d, f)
    dump = sys.argv[2]
    for strategy in sorted(os.listdir(dump)):
        for window in sorted(os.listdir(os.path.join(dump, strategy))):
            wdir = os.path.join(dump, strategy, window)
            for f in sorted(os.listdir(wdir)):
                if f not in trajs:
                    continue
                msgs = [json.loads(l) for l in open(trajs[f]) if l.strip()]
                for line in open(os.path.join(wdir, f)):
                    if not line.strip():
                        continue
                    call = json.loads(line)
                    need = usedlater.needed(msgs, call["answers"])
                    sent = "\n".join(usedlater.text(m) for m in call["messages"])
                    print(json.dumps({"strategy": strategy, "window": window, "file": f, "answers": call["answers"],
                                      "needed": need, "kept": [t for t in need if t in sent]}, sort_keys=True))


if __name__ == "__main__":
    main()
