-- SPDX-License-Identifier: MIT
-- The HTML pages of sbx.html in a real browser (Debian's chromium,
-- headless, its DOM dumped once loaded): the page of a hostile program's
-- run and a batch's index show their key facts as text, hold no element
-- a string of the box made, and run no script (the hostile strings set
-- document.title; the dumped title is the page's own).  Two control pages
-- show that this browser runs a page's script and that the page's
-- Content-Security-Policy stops it.  Without chromium (scripts/deps.sh
-- installs it) every test here is pending and says so;
-- tests/html_spec.lua checks the pages' text either way.
-- scripts/test.sh runs this file as root and as uid 65534.
local S = require "support"
local html = require "sbx.html"
local cjson = require "cjson"

local CHROMIUM = (S.sh("command -v chromium"):gsub("%s+$", ""))
local HOSTILE_TITLE = "pwned"

-- The DOM chromium makes of the page at path, serialized; nil and its
-- stderr when it made none.  A HOME and a profile of its own, in a fresh
-- directory (uid 65534's HOME does not exist); --no-sandbox: the tests
-- run as root too, which chromium's own sandbox refuses.
local function dom(path)
	local home, rm = S.tmpdir()
	local out, code = S.sh(("env HOME=%s timeout 120 %s --headless --no-sandbox --disable-gpu "
		.. "--user-data-dir=%s --dump-dom %s 2>%s"):format(S.q(home), S.q(CHROMIUM), S.q(home .. "/profile"),
		S.q("file://" .. path), S.q(home .. "/stderr")))
	local err = S.read(home .. "/stderr") or ""
	rm()
	if code ~= 0 or not out:find("</html>", 1, true) then return nil, ("exit %d: %s"):format(code, err:sub(-400)) end
	return out
end

-- the checks every page of a box's strings passes in the browser
local function no_sample_element(d)
	assert.are.equal("<title>" .. html.TITLE .. "</title>", d:match("<title>.-</title>"))
	assert.is_nil(d:find("<script", 1, true))
	assert.is_nil(d:find("<img", 1, true))
	assert.is_nil(d:find("<svg", 1, true))
	-- in the serialized DOM a "<" in text is "&lt;": every "<" is an element
	assert.is_nil(d:find("<[^>]-%sonerror="))
	assert.is_nil(d:find("<[^>]-%sonload="))
end

-- the hostile strings: each tries to set the title
local SCRIPT = "<script>document.title='" .. HOSTILE_TITLE .. "'</script>"
local IMG = "\"><img src=x onerror=document.title='" .. HOSTILE_TITLE .. "'>"
local SVG = "'><svg onload=document.title='" .. HOSTILE_TITLE .. "'>"
local FILE_SCRIPT = "<script>document.title='" .. HOSTILE_TITLE .. "'<"
local FILE_CTRL = "a\27]0;" .. HOSTILE_TITLE .. "\7b"

local describe_browser = CHROMIUM ~= "" and describe or function(name)
	pending(name .. ": chromium is not installed (scripts/deps.sh installs it)")
end

describe_browser("sbx.html in chromium", function()
	local dir, rm
	local probe_failure, open_dom
	local body = "<body>" .. SCRIPT .. "</body></html>"
	setup(function()
		dir, rm = S.tmpdir()
		-- can chromium run at all as this user? (said per privilege)
		S.write(dir .. "/open.html", "<!DOCTYPE html><html><head><title>before</title></head>" .. body)
		local why
		open_dom, why = dom(dir .. "/open.html")
		if not open_dom then probe_failure = ("chromium cannot run as %s here: %s"):format(S.priv, why) end
	end)
	teardown(function() rm() end)

	local function it_browser(name, f)
		it(name, function()
			if probe_failure then return pending(probe_failure) end
			f()
		end)
	end

	it_browser("(control) runs a page's script here, and the page's policy stops it", function()
		assert.are.equal("<title>" .. HOSTILE_TITLE .. "</title>", open_dom:match("<title>.-</title>"))
		S.write(dir .. "/csp.html", '<!DOCTYPE html><html><head><meta http-equiv="Content-Security-Policy" content="'
			.. html.CSP .. '"><title>before</title></head>' .. body)
		assert.are.equal("<title>before</title>", assert(dom(dir .. "/csp.html")):match("<title>.-</title>"))
	end)

	it_browser("shows a hostile program's run as text: its verdict, program and files; nothing of it runs", function()
		local page, json = dir .. "/run.html", dir .. "/run.json"
		local _, err, code = S.runlua("--explore", "--html", page, "--json", json, "/bin/sh", "-c",
			'for n in "$@"; do printf x > "/tmp/$n"; done', SCRIPT, IMG, FILE_SCRIPT, SVG, FILE_CTRL)
		assert.are.equal(0, code, err)
		local text = assert(S.read(json))
		local res = cjson.decode(text)
		local d = assert(dom(page))
		no_sample_element(d)
		assert.truthy(d:find("verdict: <b>" .. res.verdict.verdict .. "</b>", 1, true))
		assert.truthy(d:find("<th>program</th><td><code>/bin/sh</code></td>", 1, true))
		-- the argument and the dropped files by name, as text
		assert.truthy(d:find("<code>&lt;script&gt;document.title='" .. HOSTILE_TITLE .. "'&lt;/script&gt;</code>", 1, true))
		assert.truthy(d:find("<code>/tmp/&lt;script&gt;document.title='" .. HOSTILE_TITLE .. "'&lt;</code>", 1, true))
		assert.truthy(d:find("<code>/tmp/'&gt;&lt;svg onload=document.title='" .. HOSTILE_TITLE .. "'&gt;</code>", 1, true))
		assert.truthy(d:find('<code>/tmp/a<span class="esc">\\x1b</span>]0;' .. HOSTILE_TITLE
			.. '<span class="esc">\\x07</span>b</code>', 1, true))
	end)

	it_browser("shows a batch's index: each program's verdict and a link to its page", function()
		os.execute(("mkdir %s/in && printf '#!/bin/sh\\necho hi\\n' > %s && chmod -R a+rX %s/in"):format(
			S.q(dir), S.q(dir .. "/in/" .. FILE_SCRIPT .. ".sh"), S.q(dir)))
		local _, code = S.sh(S.bin .. " batch.lua -q --wall 5 --html " .. S.q(dir .. "/pages") .. " "
			.. S.q(dir .. "/in") .. " >/dev/null 2>&1 </dev/null")
		assert.are.equal(0, code)
		local d = assert(dom(dir .. "/pages/index.html"))
		no_sample_element(d)
		local link = d:match('<a href="(%x+%.html)">report</a>')
		assert.truthy(link)
		assert.truthy(d:find("/in/&lt;script&gt;document.title='" .. HOSTILE_TITLE .. "'&lt;.sh</code>", 1, true))
		local p = assert(dom(dir .. "/pages/" .. link))
		no_sample_element(p)
		assert.truthy(p:find("<h2>Verdict</h2>", 1, true))
	end)
end)
