-- SPDX-License-Identifier: MIT
--- sbx._sigma_util: what the parts of `sbx.sigma` share (private to
-- lua/sbx): how a rule's problem is raised, how a value is quoted in a
-- message, UTF-8 character lengths, and IP addresses and networks.
-- @module sbx._sigma_util
local M = {}

--- Raises a rule's problem: a table `{ why = }`, caught by `sbx.sigma`'s
-- compiler and reported with the rule as not supported.  Any other error
-- (sbxlua's SIGINT among them) goes on up.
-- @tparam string fmt the reason, a format when more arguments follow
-- @param ... its arguments
function M.fail(fmt, ...)
	error({ why = select("#", ...) > 0 and fmt:format(...) or fmt }, 0)
end

--- Whether an error is sbxlua's SIGINT (never a rule's problem).
-- @param err an error value
-- @treturn boolean
function M.interrupted(err)
	return type(err) == "string" and err:find("interrupted!$") ~= nil
end

--- A value short enough to quote in a message: cut at 80 bytes, control
-- and non-ASCII bytes as `\xHH`.
-- @param s anything (through `tostring`)
-- @treturn string
function M.shown(s)
	s = tostring(s)
	if #s > 80 then s = s:sub(1, 77) .. "..." end
	return (s:gsub("[%c\128-\255]", function(c) return ("\\x%02x"):format(c:byte()) end))
end

--- The length of the UTF-8 character at i (a byte that starts none, or a
-- sequence cut short: the bytes up to where it breaks, at least 1).
-- @tparam string s
-- @tparam integer i
-- @treturn integer
function M.char_len(s, i)
	local b = s:byte(i)
	if not b or b < 0xC0 then return 1 end
	local n = b >= 0xF0 and 4 or b >= 0xE0 and 3 or 2
	for k = 1, n - 1 do
		local c = s:byte(i + k)
		if not c or c < 0x80 or c > 0xBF then return k end
	end
	return n
end

-- ---- addresses ----

local function ipv4(s)
	local p = { s:match("^(%d+)%.(%d+)%.(%d+)%.(%d+)$") }
	if not p[4] then return nil end
	for i = 1, 4 do
		p[i] = tonumber(p[i])
		if p[i] > 255 or #s > 15 then return nil end
	end
	return p
end

local function ipv6_groups(s, out)
	if s == "" then return true end
	for g in (s .. ":"):gmatch("([^:]*):") do
		local v4 = g:find("%.") and ipv4(g)
		if v4 then
			for _, b in ipairs(v4) do out[#out + 1] = b end
		elseif g:match("^%x%x?%x?%x?$") then
			local v = tonumber(g, 16)
			out[#out + 1], out[#out + 2] = v >> 8, v & 255
		else
			return false
		end
	end
	return true
end

local function ipv6(s)
	s = s:gsub("%%.*$", "")
	local head, tail = s:match("^(.-)::(.*)$")
	local h, t = {}, {}
	if not ipv6_groups(head or s, h) or not ipv6_groups(tail or "", t) then return nil end
	if (head and #h + #t > 14) or (not head and #h ~= 16) then return nil end
	for _ = 1, 16 - #h - #t do h[#h + 1] = 0 end
	for _, b in ipairs(t) do h[#h + 1] = b end
	return h
end

--- An address as its bytes (4 or 16; an IPv4-mapped IPv6 address as its
-- 4), or nil.
-- @param s the address
function M.ip_bytes(s)
	if type(s) ~= "string" then return nil end
	local b = ipv4(s) or (s:find(":") and ipv6(s))
	if b and #b == 16 then
		local mapped = b[11] == 255 and b[12] == 255
		for i = 1, 10 do mapped = mapped and b[i] == 0 end
		if mapped then return { b[13], b[14], b[15], b[16] } end
	end
	return b or nil
end

--- A `|cidr` value as `{bytes =, len =}`; a bad one raises (`M.fail`).
-- @tparam string v `10.0.0.0/8`, `fe80::/10`, or an address
function M.parse_cidr(v)
	local addr, len = v:match("^([^/]+)/(%d+)$")
	local b = M.ip_bytes(addr or v)
	if not b then M.fail("bad CIDR '%s'", M.shown(v)) end
	len = tonumber(len) or #b * 8
	if #b == 4 and (addr or v):find(":") then len = len - 96 end
	if len < 0 or len > #b * 8 then M.fail("bad CIDR '%s'", M.shown(v)) end
	return { bytes = b, len = len }
end

--- Whether the bytes of an address lie in a network of `M.parse_cidr`.
function M.in_net(ip, net)
	if not ip or #ip ~= #net.bytes then return false end
	local bits = net.len
	for i = 1, #ip do
		if bits <= 0 then return true end
		local keep = bits >= 8 and 0xFF or (0xFF << (8 - bits)) & 0xFF
		if ip[i] & keep ~= net.bytes[i] & keep then return false end
		bits = bits - 8
	end
	return true
end

return M
