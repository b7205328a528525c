"""The stats.json files of a scripts/stats_regression.sh recording, shared by
the scripts that compare two recordings."""
import os


def recordings(root):
    """{(preset, run): path of its stats.json} for every run recorded under root."""
    out = {}
    for preset in sorted(os.listdir(root)):
        pdir = os.path.join(root, preset)
        if not os.path.isdir(pdir):
            continue
        for run in sorted(os.listdir(pdir)):
            path = os.path.join(pdir, run, "stats.json")
            if os.path.exists(path):
                out[(preset, run)] = path
    return out
