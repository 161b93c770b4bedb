#!/bin/sh
# SPDX-License-Identifier: MIT
# Runs every busted suite under tests/, as root and again as an unprivileged
# user (uid 65534 through setpriv), or once as the caller when not root or
# when SBX_TEST_USERS=self.  Prints each test's TAP line, then one total:
#   N passed, N failed, N skipped
# just after the failing tests once more with their messages (so that the
# last lines of a long run name them), and exits non-zero when anything
# failed.  SBX_TEST_LUA names the
# interpreter busted runs under (default lua5.4; make asan uses ./sbxlua).
set -u
cd "$(dirname "$0")/.."
top=$(pwd)
users=${SBX_TEST_USERS:-}
if [ -z "$users" ]; then
	if [ "$(id -u)" -eq 0 ]; then users="root user"; else users="self"; fi
fi

tmp=$(mktemp -d /tmp/sbxlua-test.XXXXXX)
trap 'rm -rf "$tmp"' EXIT INT TERM
chmod 0755 "$tmp"
passed=0 failed=0 skipped=0

run_suite() { # $1 = label, then the command prefix
	label=$1
	shift
	out="$tmp/$label.tap"
	"$@" busted --lua="${SBX_TEST_LUA:-lua5.4}" -o TAP >"$out" 2>"$tmp/$label.err"
	rc=$?
	sed "s/^/[$label] /" "$out"
	[ -s "$tmp/$label.err" ] && sed "s/^/[$label] stderr: /" "$tmp/$label.err"
	touch "$out"
	p=$(grep -c '^ok ' "$out")
	s=$(grep -c '^ok [0-9]* - # SKIP' "$out")
	f=$(grep -c '^not ok ' "$out")
	p=$((${p:-0} - ${s:-0})) s=${s:-0} f=${f:-0}
	if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
		echo "[$label] busted exited $rc without a failing test: counted as one failure" |
			tee -a "$tmp/failures"
		tail -3 "$tmp/$label.err" | sed "s/^/[$label] stderr: /" >>"$tmp/failures"
		f=1
	fi
	if [ "$((p + f + s))" -eq 0 ]; then
		echo "[$label] no test ran: counted as one failure" | tee -a "$tmp/failures"
		f=1
	fi
	echo "[$label] $p passed, $f failed, $s skipped"
	# each failing test's line and the diagnostic lines that follow it
	# (at most four of those: CI may show only the last lines)
	awk -v l="[$label] " '/^not ok /{n=0; on=1; print l $0; next}
		on && /^#/ && n++ < 4 {print l $0; next} !/^#/{on=0}' \
		"$out" >>"$tmp/failures"
	passed=$((passed + p)) failed=$((failed + f)) skipped=$((skipped + s))
}

for u in $users; do
	case $u in
	root | self)
		run_suite "$u" env SBX_TEST_PRIV="$u"
		;;
	user)
		# a copy the unprivileged user can read, wherever the checkout is
		copy="$tmp/tree"
		mkdir -p "$copy"
		tar -C "$top" --exclude=.git -cf - . | tar -C "$copy" -xf -
		chmod -R a+rX "$copy"
		cd "$copy" || exit 1
		run_suite user \
			setpriv --reuid=65534 --regid=65534 --clear-groups \
			env HOME=/nonexistent SBX_TEST_PRIV=user
		cd "$top" || exit 1
		;;
	esac
done

# the batch as a Slurm job array on a one-node cluster of this machine
# (tests/slurm.sh, about 15 s): one test, with the root suites only (it
# starts daemons); SBX_TEST_SLURM=0 leaves it out
case " $users " in
*" root "*)
	if [ "${SBX_TEST_SLURM:-1}" = 1 ]; then
		tests/slurm.sh >"$tmp/slurm.out" 2>&1
		rc=$?
		if [ "$rc" -eq 0 ]; then
			echo "[slurm] $(tail -1 "$tmp/slurm.out")"
			passed=$((passed + 1))
		elif [ "$rc" -eq 77 ]; then
			echo "[slurm] $(tail -1 "$tmp/slurm.out")"
			skipped=$((skipped + 1))
		else
			sed 's/^/[slurm] /' "$tmp/slurm.out"
			tail -5 "$tmp/slurm.out" | sed 's/^/[slurm] /' >>"$tmp/failures"
			failed=$((failed + 1))
		fi
	fi
	;;
esac

if [ -s "$tmp/failures" ]; then
	echo "the failing tests, once more:"
	cat "$tmp/failures"
fi
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
