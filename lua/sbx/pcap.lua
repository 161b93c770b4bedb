-- SPDX-License-Identifier: MIT
--- The network sink's records as a capture: a file in libpcap's classic
-- format (magic 0xa1b2c3d4, version 2.4, LINKTYPE_RAW: each packet an
-- IPv4 datagram), readable by `tcpdump -r` and Wireshark.  The packets
-- are synthesised from the records at the run's end (`sbx.sink.events`),
-- never captured: each TCP connection a three-way handshake, the bytes
-- the sink recorded in segments with their sequence numbers, the sink's
-- HTTP reply when it gave one, and both FINs; each datagram one UDP
-- packet; each DNS query its question and the sink's answer (a repeated
-- query once: its record's `count` says how many).  Addresses
-- and ports are the kernel's (the sink read them); the time stamps are the
-- capture's time plus a millisecond per packet, in the records' order;
-- IP, TCP and UDP checksums are computed.  What the sink did not record
-- (a connection's bytes past its cap) is not in the capture either.
local M = {}

local pack, byte, concat = string.pack, string.byte, table.concat

--- Bytes a capture holds at most (its header and whole packets); from the
-- first packet past it on, the packets are left out and counted.
M.cap = 4 * 1024 * 1024
--- Payload bytes per TCP segment.
M.mss = 1460
--- The link type: LINKTYPE_RAW.
M.LINKTYPE = 101

local TCP, UDP = 6, 17
local FIN, SYN, PSH, ACK = 1, 2, 8, 16
-- the sink's resolver, the core's (core/super/sink.h)
local RESOLVER = require("sbx.core").sink_fixed.resolver
local argcheck = require("sbx._arg").check

-- an address "a.b.c.d" as 4 bytes
local function ip4(a)
	local b1, b2, b3, b4 = a:match("^(%d+)%.(%d+)%.(%d+)%.(%d+)$")
	return pack("BBBB", tonumber(b1) or 0, tonumber(b2) or 0, tonumber(b3) or 0, tonumber(b4) or 0)
end

-- the internet checksum (RFC 1071) of s
local function checksum(s)
	local sum = 0
	if #s % 2 == 1 then s = s .. "\0" end
	for i = 1, #s, 2 do
		local hi, lo = byte(s, i, i + 1)
		sum = sum + (hi << 8 | lo)
	end
	while sum > 0xffff do sum = (sum & 0xffff) + (sum >> 16) end
	return ~sum & 0xffff
end

-- an IPv4 datagram from src to dst (4 bytes each) carrying the transport
-- segment seg (its checksum at byte offset at, 0-based, still zero)
local function ipv4(w, proto, src, dst, seg, at)
	local pseudo = src .. dst .. pack(">BBI2", 0, proto, #seg)
	local sum = checksum(pseudo .. seg)
	if proto == UDP and sum == 0 then sum = 0xffff end
	seg = seg:sub(1, at) .. pack(">I2", sum) .. seg:sub(at + 3)
	w.id = (w.id + 1) & 0xffff
	local head = pack(">BBI2I2I2BBI2", 0x45, 0, 20 + #seg, w.id, 0x4000, 64, proto, 0) .. src .. dst
	return head:sub(1, 10) .. pack(">I2", checksum(head)) .. head:sub(13) .. seg
end

-- appends one packet (an IPv4 datagram) to the capture, unless it or a
-- packet before it would pass the cap: the capture is the first packets
local function record(w, dgram)
	if w.left_out > 0 or w.size + 16 + #dgram > w.cap then
		w.left_out = w.left_out + 1
		return
	end
	w.tick = w.tick + 1
	local t = w.time * 1000 + w.tick -- milliseconds
	w.out[#w.out + 1] = pack("<I4I4I4I4", t // 1000, t % 1000 * 1000, #dgram, #dgram) .. dgram
	w.size = w.size + 16 + #dgram
end

-- one TCP segment of a flow f from its side ("c" the client, "s" the
-- sink), its sequence number advanced by what it carries
local function segment(w, f, side, flags, data)
	data = data or ""
	local me, peer = f[side], f[side == "c" and "s" or "c"]
	local seg = pack(">I2I2I4I4I2I2I2I2", me.port, peer.port, me.seq & 0xffffffff,
		flags & ACK ~= 0 and peer.seq & 0xffffffff or 0, 5 << 12 | flags, 65535, 0, 0) .. data
	record(w, ipv4(w, TCP, me.ip, peer.ip, seg, 16))
	me.seq = me.seq + #data + ((flags & (SYN | FIN)) ~= 0 and 1 or 0)
end

-- data in segments of at most M.mss bytes, then the other side's ACK
local function stream(w, f, side, data)
	for i = 1, #data, M.mss do segment(w, f, side, PSH | ACK, data:sub(i, i + M.mss - 1)) end
	if #data > 0 then segment(w, f, side == "c" and "s" or "c", ACK) end
end

-- a TCP connection: handshake, the client's bytes, the sink's reply, FINs
local function tcp(w, e, n)
	local f = { c = { ip = ip4(e.source or "0.0.0.0"), port = e.source_port or 0, seq = 1000 * n },
		s = { ip = ip4(e.address), port = e.port, seq = 5000 * n } }
	segment(w, f, "c", SYN)
	segment(w, f, "s", SYN | ACK)
	segment(w, f, "c", ACK)
	stream(w, f, "c", e.data or "")
	local first = e.reply and "s" or "c" -- the sink shuts its side after a reply
	if e.reply then stream(w, f, "s", e.reply) end
	local second = first == "s" and "c" or "s"
	segment(w, f, first, FIN | ACK)
	segment(w, f, second, FIN | ACK)
	segment(w, f, first, ACK)
end

local function udp(w, src, sport, dst, dport, data)
	local seg = pack(">I2I2I2I2", sport, dport, 8 + #data, 0) .. data
	record(w, ipv4(w, UDP, ip4(src), ip4(dst), seg, 6))
end

-- a DNS message: the question of e, and the sink's answer when reply
local function dns_message(e, id, reply)
	local labels = {}
	for l in (e.name .. "."):gmatch("([^.]*)%.") do labels[#labels + 1] = pack("s1", l:sub(1, 63)) end
	local qtype = tonumber(tostring(e.type):match("^TYPE(%d+)$")) or M.TYPES[e.type] or 0
	local q = concat(labels) .. "\0" .. pack(">I2I2", qtype, 1)
	local addr = e.answer and e.answer:match("^%d+%.%d+%.%d+%.%d+$")
	if not reply then return pack(">I2I2I2I2I2I2", id, 0x0100, 1, 0, 0, 0) .. q end
	local flags = 0x8180 | (e.answer == "NXDOMAIN" and 3 or 0)
	local an = addr and pack(">I2I2I2I4I2", 0xc00c, 1, 1, 60, 4) .. ip4(addr) or ""
	return pack(">I2I2I2I2I2I2", id, flags, 1, addr and 1 or 0, 0, 0) .. q .. an
end

--- The DNS types by name (the core's names: `sink_lua.c`).
M.TYPES = { A = 1, NS = 2, CNAME = 5, SOA = 6, PTR = 12, MX = 15, TXT = 16, AAAA = 28, SRV = 33,
	SVCB = 64, HTTPS = 65, ANY = 255 }

-- a DNS query and the sink's answer; a query to another address than the
-- resolver is already in the capture as its datagram (`traffic`)
local function dns(w, e, n)
	local src, sport, dst = e.source or "127.0.0.1", e.source_port or 0, e.address or RESOLVER
	if dst == RESOLVER then udp(w, src, sport, dst, 53, dns_message(e, n & 0xffff)) end
	udp(w, dst, 53, src, sport, dns_message(e, n & 0xffff, true))
end

--- The capture of a run's sink records.
-- @tparam table events the sink's events (`sbx.sink.events(r)`)
-- @tparam[opt] table o `time` (the first packet's second, default now),
--  `cap` (bytes, default `M.cap`)
-- @treturn string the file's bytes
-- @treturn integer the packets left out at the cap (0: none)
function M.file(events, o)
	argcheck(events, "table", 1, "file")
	o = o or {}
	argcheck(o, "table", 2, "file")
	for k in pairs(o) do
		if k ~= "time" and k ~= "cap" then error(("bad argument #2 to 'file' (unknown key '%s')"):format(k), 2) end
	end
	local head = pack("<I4I2I2i4I4I4I4", 0xa1b2c3d4, 2, 4, 0, 0, 65535, M.LINKTYPE)
	local w = { out = { head }, size = #head, cap = o.cap or M.cap, time = o.time or os.time(), tick = 0,
		id = 0, left_out = 0 }
	for n, e in ipairs(events) do
		if e.kind == "dns" then
			dns(w, e, n)
		elseif e.protocol == "tcp" then
			tcp(w, e, n)
		elseif e.protocol == "udp" then
			udp(w, e.source or "0.0.0.0", e.source_port or 0, e.address, e.port, e.data or "")
		end
	end
	return concat(w.out), w.left_out
end

return M
