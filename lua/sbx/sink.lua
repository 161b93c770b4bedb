--- The network sink of the standard box (`--net sink`): what the box's
-- synthetic /etc says of names, the spec's `sink` table, and its JSON
-- fields.  The mechanism is the core's (core/super/sink.c): every IPv4
-- address is the box's own, the resolver at 127.0.0.53 and the listeners
-- are the supervisor's, and nothing leaves the box's namespace.  Its
-- report lines are worded by `sbx.report` (`sink_text`).
local M = {}

local report = require "sbx.report"
local escape, name_of = report.escape, report.dns_name

--- The address every A query is answered with.
M.address = "10.0.0.2"
--- The resolver's address (`/etc/resolv.conf`); the core answers there.
M.resolver = "127.0.0.53"
--- The TCP and UDP ports always caught (UDP 53 is also the resolver).
M.always = { 53, 80, 443, 4444, 8080 }
--- The other ports caught unless the operator names its own.
M.ports = { 21, 22, 23, 25, 110, 143, 445, 993, 1080, 6667, 8443 }
--- At most this many ports (the core's cap).
M.max_ports = 16
--- Bytes of a connection or a datagram recorded.
M.cap = 4096

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

local function hex(s)
	return (s:gsub(".", function(c) return ("%02x"):format(c:byte()) end))
end

--- The sink's events of a result, in the order they happened: `dns`
-- (`name`, `type`, `answer`: an address, "NXDOMAIN" or "none") and
-- `traffic` (`protocol`, `address`, `port`, `bytes`, `data` the first
-- bytes, at most `M.cap`).
-- @tparam table r the result of box:run()
-- @treturn table
function M.events(r)
	assert(type(r) == "table", "bad argument #1 to 'events' (table expected)")
	return r.sink or {}
end

--- The JSON field `sink`, into the table t: `dns` ({hostname, type,
-- answer}), `traffic` ({protocol, address, port, bytes, first_bytes
-- escaped, first_bytes_hex}) and `dropped` (the records past the cap).
-- The sink's own records, one per lookup and conversation; the
-- behaviour's `dns_lookups` and `ip_traffic` are the facts drawn from
-- them (`sbx.behaviour`), each in that one place.
-- @treturn table t
function M.json(r, t)
	assert(type(t) == "table", "bad argument #2 to 'json' (table expected)")
	local dns, traffic = {}, {}
	for _, e in ipairs(M.events(r)) do
		if e.kind == "dns" then
			dns[#dns + 1] = { hostname = name_of(e.name), type = e.type, answer = e.answer }
		else
			traffic[#traffic + 1] = { protocol = e.protocol, address = e.address, port = e.port,
				bytes = e.bytes, first_bytes = escape(e.data), first_bytes_hex = hex(e.data) }
		end
	end
	t.sink = { dns = dns, traffic = traffic, dropped = r.sink_dropped }
	return t
end

return M
