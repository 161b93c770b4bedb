-- SPDX-License-Identifier: MIT
--- The network sink of the standard box (`--net sink`): what the box's
-- synthetic /etc says of names, the spec's `sink` table, and its JSON
-- fields.  The mechanism is the core's (core/super/sink.c): every IPv4
-- address is the box's own, the resolver at 127.0.0.53 and the listeners
-- are the supervisor's, and nothing leaves the box's namespace.  Its
-- report lines are worded by `sbx.report` (`sink_text`).
local M = {}

local txt = require "sbx.text"
local core = require "sbx.core"
local json = require "sbx.json"
local escape, name_of = txt.escape, txt.dns_name
local byte, find, sub = string.byte, string.find, string.sub

-- the core's fixed values (core/super/sink.h), read, never repeated
local fixed = core.sink_fixed
--- The address every A query is answered with.
M.address = fixed.address
--- The resolver's address (`/etc/resolv.conf`); the core answers there.
M.resolver = fixed.resolver
--- The TCP and UDP ports always caught (UDP 53 is also the resolver).
M.always = { 53, 80, 443, 4444, 8080 }
--- The other ports caught unless the operator names its own.
M.ports = { 21, 22, 23, 25, 110, 143, 445, 993, 1080, 6667, 8443 }
--- At most this many ports (the core's cap).
M.max_ports = fixed.max_ports
--- Bytes of a connection or a datagram recorded (the record's `bytes`
-- says how many came, and `cut` marks one past the cap).
M.cap = fixed.cap
--- Records kept per kind (the core's budgets, core/super/sink.h): `dns`
-- distinct queries (a repeat of one name and type is its record's
-- `count`), `tcp` connections, `udp` datagrams, `http` connections the
-- sink answered with HTTP.  Past a budget the sink answers as before and
-- counts what it did not record (`sink_dropped_dns`... in the result).
M.budget = fixed.budget

--- The files of the synthetic /etc that differ with the sink: names are
-- looked up in /etc/hosts, then at the resolver.
-- @tparam table etc the files of `sbx.stdbox.etc_files`, changed in place
-- @treturn table etc
function M.etc(etc)
	assert(type(etc) == "table", "bad argument #1 to 'etc' (table expected)")
	etc["resolv.conf"] = "nameserver " .. M.resolver .. "\noptions attempts:1\n"
	etc["nsswitch.conf"] = etc["nsswitch.conf"]:gsub("hosts: files\n", "hosts: files dns\n")
	return etc
end

--- The spec's `sink` table.
-- @tparam[opt] table o `ports` (a list of ports caught beside `M.always`,
--  default `M.ports`),
--  `nxdomain` (names whose every lookup, and their subdomains', is
--  answered NXDOMAIN)
-- @treturn table
function M.spec(o)
	o = o or {}
	assert(type(o) == "table", "bad argument #1 to 'spec' (table expected)")
	local ports, seen = {}, {}
	for _, list in ipairs { M.always, o.ports or M.ports } do
		for _, p in ipairs(list) do
			if not seen[p] then ports[#ports + 1], seen[p] = p, true end
		end
	end
	return { address = M.address, ports = ports, nxdomain = o.nxdomain }
end

--- Parses a `--sink-ports` list ("80,443,8080").
-- @treturn table ports; or nil, msg
function M.parse_ports(s)
	if type(s) ~= "string" then error("bad argument #1 to 'parse_ports' (string expected)", 2) end
	local ports, seen = {}, {}
	for _, p in ipairs(M.always) do seen[p] = true end
	for p in (s .. ","):gmatch("([^,]*),") do
		local n = tonumber(p)
		if not p:match("^%d+$") or not n or n < 1 or n > 65535 then
			return nil, ("expected ports 1 to 65535 separated by commas, not %q"):format(p)
		end
		if not seen[n] then ports[#ports + 1], seen[n] = n, true end
	end
	if #ports + #M.always > M.max_ports then
		return nil, ("at most %d ports beside %s"):format(M.max_ports - #M.always, table.concat(M.always, ","))
	end
	return ports
end

--- Headers of one HTTP request kept at most (the rest counted).
M.max_headers = 100

-- s without the blanks (space, tab) at its ends; a loop, not a pattern:
-- a hostile line of blanks costs no backtracking
local function trim(s)
	local i, j = 1, #s
	while i <= j and (byte(s, i) == 32 or byte(s, i) == 9) do i = i + 1 end
	while j >= i and (byte(s, j) == 32 or byte(s, j) == 9) do j = j - 1 end
	return sub(s, i, j)
end

-- the header lines of d from p on, each ending CRLF (a bare CR or LF is a
-- byte of its line), up to the blank line: the headers by name (as first
-- spelt; a repeated name's values joined by ", "), each name's first value
-- by its name in lower case, how many were left out, and where the body
-- starts (nil: the record ended first, or a line that is no header did)
local function headers(d, p)
	local h, first, n, left = {}, {}, 0, 0
	local spelt = {}
	while true do
		local q = find(d, "\r\n", p, true)
		if not q then return h, first, left, nil end
		if q == p then return h, first, left, q + 2 end
		local name, value = sub(d, p, q - 1):match("^([!#$%%&'*+.^_`|~%w%-]+):(.*)$")
		if not name then return h, first, left, nil end
		local lower = name:lower()
		if spelt[lower] then
			h[spelt[lower]] = h[spelt[lower]] .. ", " .. trim(value)
		elseif n < M.max_headers then
			n, spelt[lower], first[lower] = n + 1, name, trim(value)
			h[name] = first[lower]
		else
			left = left + 1
		end
		p = q + 2
	end
end

--- Bytes of an HTTP request's body a result shows (`body`): its first.
M.BODY_SHOWN = 4096

--- The HTTP request a sink record holds, or nil when its first bytes are
-- none: `method`, `url` (`http://` and the Host header, or the address,
-- with the port unless 80, and the target; an absolute target as sent),
-- `host` (the first Host header's), `port`, `address`, `headers` (name = value), `body_size` and
-- `body_sha256` (the body's bytes the sink recorded), `body` (its first
-- M.BODY_SHOWN bytes), `headers_left_out`,
-- `complete` (the record holds the blank line that ends the headers),
-- `replied` (the sink answered it), `bytes` (what the connection sent)
-- and `cut` (true when that passed the cap: the record holds the first).  Every string is the program's bytes,
-- unescaped; sizes are bounded by the sink's cap.
-- @tparam table e a traffic event (`M.events`)
-- @treturn table|nil
function M.http(e)
	if type(e) ~= "table" then error("bad argument #1 to 'http' (table expected)", 2) end
	if e.kind ~= "traffic" or e.protocol ~= "tcp" or type(e.data) ~= "string" then return nil end
	local method, target, p = e.data:match("^(%u+) ([^ \r\n]+) HTTP/%d%.%d\r\n()")
	if not method or #method > 16 then return nil end
	local h, first, left, body_at = headers(e.data, p)
	local host = first.host or e.address
	local url = target
	if not target:find("^%a[%w+.-]*://") then
		local port = (host:find(":%d+$") or e.port == 80) and "" or ":" .. e.port
		url = "http://" .. host .. port .. (target:sub(1, 1) == "/" and target or "/" .. target)
	end
	local body = body_at and sub(e.data, body_at) or ""
	return { method = method, url = url, host = host, port = e.port, address = e.address, headers = h,
		headers_left_out = left, body_size = #body, body_sha256 = core.sha256(body),
		body = sub(body, 1, M.BODY_SHOWN),
		complete = body_at ~= nil, replied = e.reply ~= nil, bytes = e.bytes, cut = e.cut or nil }
end

-- an HTTP request of M.http with its strings escaped (JSON holds text)
local function escaped(c)
	if not c then return nil end
	local h = json.object() -- a map, {} when empty
	for k, v in pairs(c.headers) do h[escape(k)] = escape(v) end
	c.method, c.url, c.host, c.headers = escape(c.method), escape(c.url), escape(c.host), h
	c.body = escape(c.body)
	return c
end

local function hex(s)
	return (s:gsub(".", function(c) return ("%02x"):format(c:byte()) end))
end

--- The sink's events of a result, in the order they happened: `dns`
-- (`name`, `type`, `answer`: an address, "NXDOMAIN" or "none"; `address`
-- the one the query went to, `count` the queries of that name, type and
-- answer, the first one's fields) and `traffic` (`protocol`, `address`,
-- `port`, `bytes` received, `data` the first bytes, at most `M.cap`; `cut`
-- true when bytes passed it; `reply` the sink's HTTP reply when it gave
-- one), each with the sender's `source` and `source_port`.
-- @tparam table r the result of box:run()
-- @treturn table
function M.events(r)
	assert(type(r) == "table", "bad argument #1 to 'events' (table expected)")
	return r.sink or {}
end

--- The JSON field `sink`, into the table t: `dns` ({hostname, type,
-- answer, count}), `traffic` ({protocol, address, port, bytes, first_bytes
-- escaped, first_bytes_hex, cut}), `dropped_dns`, `dropped_tcp`,
-- `dropped_udp`, `dropped_http` (what each budget left out) and `dropped`
-- (their total), and `http`
-- (`M.http`, in order, each string escaped as the report escapes it:
-- a header's name too).
-- The sink's own records, one per lookup and conversation; the
-- behaviour's `dns_lookups` and `ip_traffic` are the facts drawn from
-- them (`sbx.behaviour`), each in that one place.
-- @treturn table t
function M.json(r, t)
	assert(type(t) == "table", "bad argument #2 to 'json' (table expected)")
	local dns, traffic, http = {}, {}, {}
	for _, e in ipairs(M.events(r)) do
		http[#http + 1] = escaped(M.http(e))
		if e.kind == "dns" then
			dns[#dns + 1] = { hostname = name_of(e.name), type = e.type, answer = e.answer, count = e.count }
		else
			traffic[#traffic + 1] = { protocol = e.protocol, address = e.address, port = e.port,
				bytes = e.bytes, first_bytes = escape(e.data), first_bytes_hex = hex(e.data), cut = e.cut }
		end
	end
	t.sink = { dns = dns, traffic = traffic, dropped = r.sink_dropped, dropped_dns = r.sink_dropped_dns,
		dropped_tcp = r.sink_dropped_tcp, dropped_udp = r.sink_dropped_udp, dropped_http = r.sink_dropped_http,
		http = http }
	return t
end

return M
