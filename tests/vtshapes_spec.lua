-- SPDX-License-Identifier: MIT
-- VirusTotal's shapes beside sbxlua's own fields: sigma_analysis_results
-- (a Sigma rule's match: its title, level, id, source, description and the
-- event it matched), analysis_date, sandbox_name, has_html_report.  As
-- root and as uid 65534.
local S = require "tests.support"
local cjson = require "cjson"
local core = require "sbx.core"

local RULE = [[
title: Shadow read by cat
id: 11111111-2222-3333-4444-555555555555
description: a test rule of vtshapes_spec
level: high
logsource:
  product: linux
  category: process_creation
detection:
  sel:
    Image|endswith: /cat
    CommandLine|contains: shadow
  condition: sel
tags:
  - attack.t1003.008
]]

describe("VirusTotal's shapes [" .. S.priv .. "]", function()
	S.leak_check(before_each, after_each, assert)

	it("a Sigma match is in sigma_analysis_results, its event's fields escaped", function()
		local dir, rm = S.tmpdir()
		S.write(dir .. "/rule.yml", RULE)
		os.execute("mkdir " .. S.q(dir .. "/p"))
		-- a command line with a terminal sequence and a byte that is no UTF-8
		S.write(dir .. "/p/s.sh", "#!/bin/sh\ncat /etc/shadow '\27[2J\255x' 2>/dev/null\n")
		os.execute("chmod -R a+rX " .. S.q(dir) .. " && chmod 755 " .. S.q(dir .. "/p/s.sh"))
		local out, code = S.sh(S.bin .. " batch.lua --rules " .. S.q(dir .. "/rule.yml") .. " --progress never "
			.. S.q(dir .. "/p") .. " 2>/dev/null")
		rm()
		assert.are.equal(0, code)
		local rec = cjson.decode(out)
		local list = rec.sigma_analysis_results
		assert.is_table(list, out)
		assert.are.equal(1, #list)
		local m = list[1]
		assert.are.same({ "Shadow read by cat", "11111111-2222-3333-4444-555555555555", "high",
			"a test rule of vtshapes_spec", dir .. "/rule.yml" },
			{ m.rule_title, m.rule_id, m.rule_level, m.rule_description, m.rule_source })
		local v = m.match_context[1].values
		assert.are.equal("/usr/bin/cat", v.Image)
		assert.are.equal("cat /etc/shadow \\x1b[2J\\xffx", v.CommandLine)
		-- the finding says it in words, and carries no copy
		for _, r in ipairs(rec.reasons) do assert.is_nil(r.sigma, r.rule) end
	end)

	it("a run says when it ran, which sandbox, and whether it has a page", function()
		local before = os.time()
		local dir, rm = S.tmpdir()
		local _, err, code, res = S.json_run("--explore", "--html", dir .. "/p.html", "true")
		assert.are.equal(0, code, err)
		assert.are.equal("sbxlua " .. core.version, res.sandbox_name)
		-- (JSON's numbers decode as floats: a whole number of seconds)
		local at = math.tointeger(res.analysis_date)
		assert.is_true(at ~= nil and at >= before and at <= os.time(), tostring(res.analysis_date))
		assert.is_true(res.behaviour.has_html_report)
		_, err, code, res = S.json_run("--explore", "true")
		rm()
		assert.are.equal(0, code, err)
		assert.is_false(res.behaviour.has_html_report)
		assert.is_nil(res.verdict.sigma_analysis_results)
	end)
end)
