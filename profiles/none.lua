-- SPDX-License-Identifier: MIT
-- profiles/none.lua: no seccomp filter at all.
--
-- `false`, not a table: an empty spec would still be a filter (it kills
-- other ABIs), and "no filter" must be impossible to mistake for one.
-- lua/sbx/profile.lua returns this false from load() and compile(); the box
-- then installs nothing and its report says so.  See docs/seccomp.md.
return false
