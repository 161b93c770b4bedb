#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Writes lua/sbx/attack_data.lua, sbxlua's table of ATT&CK Enterprise
techniques (current name and tactics), revoked ids (with the id that
replaced each) and deprecated ids, from MITRE's own data.

    scripts/attack-table.py --stix enterprise-attack.json > lua/sbx/attack_data.lua
    scripts/attack-table.py --stix cti/enterprise-attack --stix-version 18.1 \\
        --notes updates-april-2026.md > lua/sbx/attack_data.lua

--stix is MITRE's STIX data: one bundle (mitre-attack/attack-stix-data's
enterprise-attack.json) or mitre/cti's enterprise-attack directory (one
object per file).  --notes, when the newest release is not at hand as
STIX, is that release's notes as MITRE publishes them (the source of
attack.mitre.org/resources/updates/..., in mitre-attack/attack-website's
modules/resources/static_pages/updates-*.md): its technique lists give the
current names and ids, its revocations the successors, its tactic links
the tactics' names.  A note cannot say which tactic a new technique is
filed under: NEW_TACTICS holds those the project needs, each with where
it was read.  With a bundle of the release itself, no --notes is needed
and NEW_TACTICS is not used.
"""
import argparse
import glob
import json
import os
import re
import sys

# Tactics of techniques a release note adds (the note does not carry them).
# Sub-techniques take their parent's.  Sources: the v19 notes (April 2026).
NEW_TACTICS = {
    # "Detection of Defense Impairment through Disabled or Modified Tools"
    # (DET0497) is T1685's detection strategy in the notes
    "T1685": ["defense-impairment"],
    # "Detection Strategy for Defense Impairment via Prevent Command
    # History Logging" (DET0563)
    "T1690": ["defense-impairment"],
    # its name: "Exploitation for Defense Impairment"
    "T1687": ["defense-impairment"],
    # inferred: each replaces a revoked Impair Defenses sub-technique
    # (T1562.004/.007/.013, T1562.009, T1562.010) as T1685 and T1690 do;
    # not read on a page of MITRE's
    "T1686": ["defense-impairment"],
    "T1688": ["defense-impairment"],
    "T1689": ["defense-impairment"],
}

TACTIC_ORDER = ["reconnaissance", "resource-development", "initial-access", "execution",
                "persistence", "privilege-escalation", "stealth", "defense-evasion",
                "defense-impairment", "credential-access", "discovery", "lateral-movement",
                "collection", "command-and-control", "exfiltration", "impact"]


def mitre_id(obj):
    for ref in obj.get("external_references", []):
        if ref.get("source_name") == "mitre-attack" and ref.get("external_id"):
            return ref["external_id"]
    return None


def load_objects(path):
    if os.path.isdir(path):
        for sub in ("attack-pattern", "x-mitre-tactic", "relationship", "x-mitre-collection"):
            for f in sorted(glob.glob(os.path.join(path, sub, "*.json"))):
                with open(f, encoding="utf-8") as fh:
                    yield from json.load(fh).get("objects", [])
    else:
        with open(path, encoding="utf-8") as fh:
            yield from json.load(fh).get("objects", [])


def read_stix(path):
    patterns, tactics, revoked_by, version, date = {}, {}, {}, None, None
    for o in load_objects(path):
        t = o.get("type")
        if t == "attack-pattern":
            patterns[o["id"]] = o
        elif t == "x-mitre-tactic":
            tactics[o["x_mitre_shortname"]] = {"id": mitre_id(o), "name": o["name"]}
        elif t == "relationship" and o.get("relationship_type") == "revoked-by":
            revoked_by[o["source_ref"]] = o["target_ref"]
        elif t == "x-mitre-collection":
            version, date = o.get("x_mitre_version"), (o.get("modified") or "")[:10]
    techs, revoked, deprecated = {}, {}, {}
    for sid, o in patterns.items():
        tid = mitre_id(o)
        if not tid or "enterprise-attack" not in o.get("x_mitre_domains", ["enterprise-attack"]):
            continue
        if o.get("revoked"):
            target = patterns.get(revoked_by.get(sid, ""))
            if target and mitre_id(target):
                revoked[tid] = mitre_id(target)
            continue
        if o.get("x_mitre_deprecated"):
            deprecated[tid] = True
            continue
        phases = [p["phase_name"] for p in o.get("kill_chain_phases", [])
                  if p.get("kill_chain_name") == "mitre-attack"]
        techs[tid] = {"name": o["name"], "tactics": phases}
    return techs, revoked, deprecated, tactics, version, date


LINK = r"\[([^\]]+)\]\(/techniques/(T\d{4})(?:/(\d{3}))?\)"


def tid_of(num, sub):
    return num + ("." + sub if sub else "")


def enterprise_techniques(text):
    """The Enterprise part of the notes' Techniques section."""
    m = re.search(r"^## Techniques\n(.*?)^## ", text, re.S | re.M)
    if not m:
        sys.exit("notes: no Techniques section")
    m = re.search(r"^### Enterprise\n(.*?)(?=^### |\Z)", m.group(1), re.S | re.M)
    if not m:
        sys.exit("notes: no Enterprise techniques")
    return m.group(1)


def apply_notes(path, techs, revoked, deprecated, tactics):
    with open(path, encoding="utf-8") as fh:
        text = fh.read()
    m = re.search(r"\[ATT&CK v([\d.]+)\]\(/versions/v[\d.]+\) \| (\w+ \d+, \d{4})", text)
    if not m:
        sys.exit("notes: no version line")
    version, date = m.group(1), m.group(2)
    if "." not in version:
        version += ".0"
    # tactics the notes link to, by id: a new name is a rename in place
    renamed = {}
    for name, ta in re.findall(r"\[([^\]]+)\]\(https://attack\.mitre\.org/tactics/(TA\d{4})/?\)", text):
        short = name.lower().replace(" ", "-")
        old = next((s for s, t in tactics.items() if t["id"] == ta), None)
        if old and old != short:
            renamed[old] = short
            del tactics[old]
        tactics[short] = {"id": ta, "name": name}
    for t in techs.values():
        t["tactics"] = [renamed.get(x, x) for x in t["tactics"]]
    part = enterprise_techniques(text)
    section, added = None, set()
    for line in part.splitlines():
        h = re.match(r"^#### (.*)", line)
        if h:
            section = h.group(1).strip()
            continue
        if not line.startswith("* "):
            continue
        rv = re.match(r"^\* (.+?) \(revoked by (?:[^\[]*?: )?" + LINK + r"\)", line)
        if rv:
            old_name, new_id = rv.group(1), tid_of(rv.group(3), rv.group(4))
            olds = [i for i, t in techs.items() if t["name"] == old_name and i not in added]
            if len(olds) != 1:
                sys.exit("notes: revoked '%s' names %d techniques" % (old_name, len(olds)))
            revoked[olds[0]] = new_id
            del techs[olds[0]]
            continue
        if section == "Deprecations" or section == "Object deprecations":
            lk = re.search(LINK, line)
            if lk:
                tid = tid_of(lk.group(2), lk.group(3))
                deprecated[tid] = True
                techs.pop(tid, None)
            continue
        lk = re.search(LINK, line)
        if not lk:
            continue
        name, tid = lk.group(1), tid_of(lk.group(2), lk.group(3))
        if tid in techs:
            techs[tid]["name"] = name
        else:
            parent = techs.get(lk.group(2)) if lk.group(3) else None
            tact = NEW_TACTICS.get(tid) or NEW_TACTICS.get(lk.group(2)) or (parent or {}).get("tactics") or []
            techs[tid] = {"name": name, "tactics": list(tact)}
            added.add(tid)
    # sub-techniques added before their parent's line was read
    for tid, t in techs.items():
        if not t["tactics"] and "." in tid and tid.split(".")[0] in techs:
            t["tactics"] = list(techs[tid.split(".")[0]]["tactics"])
    return version, date


def lua_str(s):
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


def sort_key(tid):
    return (tid.split(".")[0], tid)


def write(out, techs, revoked, deprecated, tactics, meta):
    w = out.write
    w("-- SPDX-License-Identifier: MIT\n")
    w("-- ATT&CK Enterprise %s (%s), generated by scripts/attack-table.py:\n" % (meta["version"], meta["date"]))
    w("-- do not edit; docs/attack.md says how to make it again.\n")
    w("-- Data: MITRE ATT&CK(R), (c) The MITRE Corporation, under its terms of use.\n")
    w("-- luacheck: no max line length\n")
    w("return {\n")
    w("\tversion = %s,\n\tdate = %s,\n" % (lua_str(meta["version"]), lua_str(meta["date"])))
    w("\tmade = {\n")
    for s in meta["made"]:
        w("\t\t%s,\n" % lua_str(s))
    w("\t},\n\ttactics = {\n")
    for short in sorted(tactics, key=lambda s: TACTIC_ORDER.index(s) if s in TACTIC_ORDER else 99):
        t = tactics[short]
        w("\t\t{ %s, %s, %s },\n" % (lua_str(short), lua_str(t["id"]), lua_str(t["name"])))
    w("\t},\n")
    w("\t-- id = { name, tactic... }; a sub-technique's name is its parent's, \": \", its own\n")
    w("\ttechniques = {\n")
    for tid in sorted(techs, key=sort_key):
        t = techs[tid]
        name = t["name"]
        if "." in tid and tid.split(".")[0] in techs:
            name = techs[tid.split(".")[0]]["name"] + ": " + name
        fields = [lua_str(name)] + [lua_str(x) for x in t["tactics"]]
        w("\t\t[%s] = { %s },\n" % (lua_str(tid), ", ".join(fields)))
    w("\t},\n\t-- a revoked id = the id that replaced it\n\trevoked = {\n")
    for tid in sorted(revoked, key=sort_key):
        w("\t\t[%s] = %s,\n" % (lua_str(tid), lua_str(revoked[tid])))
    w("\t},\n\tdeprecated = {\n")
    for tid in sorted(deprecated, key=sort_key):
        w("\t\t[%s] = true,\n" % lua_str(tid))
    w("\t},\n}\n")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--stix", required=True, help="a STIX bundle, or mitre/cti's enterprise-attack directory")
    ap.add_argument("--stix-version", help="the STIX data's release, when it does not say (mitre/cti)")
    ap.add_argument("--stix-source", default=None, help="where the STIX data came from (for the record)")
    ap.add_argument("--notes", help="a newer release's notes (attack-website's updates-*.md)")
    ap.add_argument("--notes-source", default=None, help="where the notes came from (for the record)")
    a = ap.parse_args()
    techs, revoked, deprecated, tactics, version, date = read_stix(a.stix)
    version = version or a.stix_version
    if not version:
        sys.exit("the STIX data does not say its release: give --stix-version")
    made = ["STIX: ATT&CK Enterprise %s%s" % (version, " from " + a.stix_source if a.stix_source else "")]
    if a.notes:
        version, date = apply_notes(a.notes, techs, revoked, deprecated, tactics)
        made.append("release notes: ATT&CK %s%s (names, new ids, revocations, tactic names)"
                    % (version, " from " + a.notes_source if a.notes_source else ""))
        made.append("not read: the release's own STIX data and technique pages; a technique's tactics are "
                    "those of the STIX data, renamed as the notes rename tactics, a new technique's as below")
        for tid in sorted(NEW_TACTICS):
            made.append("tactic of %s: %s (not in the notes; see scripts/attack-table.py)"
                        % (tid, ", ".join(NEW_TACTICS[tid])))
    # a revoked id whose successor was revoked in turn names the last one
    for tid in list(revoked):
        seen, nxt = {tid}, revoked[tid]
        while nxt in revoked and nxt not in seen:
            seen.add(nxt)
            nxt = revoked[nxt]
        revoked[tid] = nxt
    write(sys.stdout, techs, revoked, deprecated, tactics,
          {"version": version, "date": date or "?", "made": made})


if __name__ == "__main__":
    main()
