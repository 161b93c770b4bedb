#!/bin/sh
# SPDX-License-Identifier: MIT
# Makes lua/sbx/attack_data.lua again (scripts/attack-table.py; docs/attack.md).
#   scripts/attack-table.sh BUNDLE                  a release's STIX bundle
#   scripts/attack-table.sh CTI_DIR VERSION NOTES   mitre/cti's enterprise-attack
#                                                   directory, its release, and a
#                                                   newer release's notes
# STIX_SOURCE and NOTES_SOURCE say where the data came from (the table
# records it); their defaults are those of the table made for ATT&CK v19.
set -eu
cd "$(dirname "$0")/.."
out=$(mktemp)
trap 'rm -f "$out"' EXIT
if [ $# -eq 1 ]; then
	python3 scripts/attack-table.py --stix "$1" >"$out"
elif [ $# -eq 3 ]; then
	python3 scripts/attack-table.py --stix "$1" --stix-version "$2" --notes "$3" \
		--stix-source "${STIX_SOURCE:-github.com/mitre/cti at 421deacb77191b38bdd1bf63268954e93da91365 (tag ATT&CK-v18.1)}" \
		--notes-source "${NOTES_SOURCE:-attack.mitre.org/resources/updates/updates-april-2026/ (its source, github.com/mitre-attack/attack-website at 83754156976a4439088e7ef1ee83a2cdbbc003cd)}" >"$out"
else
	echo "usage: $0 BUNDLE | CTI_DIR VERSION NOTES" >&2
	exit 2
fi
cat "$out" >lua/sbx/attack_data.lua
