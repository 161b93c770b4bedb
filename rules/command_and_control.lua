-- SPDX-License-Identifier: MIT
-- Command and control (TA0011) as Linux bots hold it: a service's port
-- spoken to in another protocol (an IoT bot's C2 on the telnet port, a
-- binary hello where a telnet, SSH or mail client would send text), and
-- an IRC channel joined for orders; the server's name and port in the
-- reason.  From the sink's capture: the
-- first bytes each connection sent (`sbx.facts` traffic `first_bytes`,
-- escaped as the report escapes them: a control byte is `\xNN`, CR and
-- LF `\r` and `\n`).
local T = rulekit.technique

-- the ports of text protocols a client opens with text (or, for telnet,
-- with option negotiation, IAC = \xff), and the ports' names
local TEXT_PORTS = { [21] = "ftp", [22] = "ssh", [23] = "telnet", [25] = "smtp", [110] = "pop3",
	[143] = "imap", [2323] = "telnet", [6667] = "irc" }

-- control bytes other than CR, LF and tab (escaped by name), or the
-- start of an SSH banner where one is due
local function binary(bytes)
	return bytes:find("\\x[01]%x") ~= nil or bytes:find("\\x7[fF]") ~= nil
end

local function other_protocol(_, F)
	local n, first = 0, nil
	for _, t in ipairs(F.traffic) do
		local service = TEXT_PORTS[t.port]
		local b = t.first_bytes
		if service and t.protocol == "tcp" and not t.loopback and type(b) == "string" and b ~= ""
			and (binary(b) or (service == "ssh" and not b:find("^SSH%-"))) then
			n = n + 1
			first = first or ("sent %s to port %d (%s) of %s, not %s"):format(b:sub(1, 40), t.port,
				service, t.hostname or t.ip, service)
		end
	end
	return first, n
end

-- an IRC bot's registration and channel join (Gafgyt's and Tsunami's
-- kin take their orders in a channel), on any port: NICK and USER, or a
-- JOIN, in the first bytes a connection sent
local function irc(_, F)
	for _, t in ipairs(F.traffic) do
		local b = t.first_bytes
		if type(b) == "string" and t.protocol == "tcp" and not t.loopback
			and ((b:find("^NICK %S") and b:find("\\nUSER %S")) or b:find("^USER %S+ .*\\nNICK %S")
				or b:find("\\nJOIN #")) then
			return ("joined IRC at %s:%d: %s"):format(t.hostname or t.ip, t.port, b:sub(1, 60))
		end
	end
	return nil
end

return {
	T { id = "T1071", name = "irc_c2", tactic = "command-and-control", severity = 6,
		what = "took orders over IRC",
		doc = "took orders over IRC: a NICK and USER registration or a channel JOIN in the first bytes "
			.. "of a connection the sink captured, any port (evidence: check)",
		check = irc },
	T { id = "T1571", name = "service_port_other_protocol", tactic = "command-and-control", severity = 6,
		what = "spoke another protocol on a service's port",
		doc = "spoke another protocol on a service's port: binary bytes to a telnet, FTP, mail or IRC "
			.. "port, or no SSH banner to port 22 (evidence: the sink's capture of the first bytes sent)",
		check = other_protocol },
}
