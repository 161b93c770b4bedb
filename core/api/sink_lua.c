/* SPDX-License-Identifier: MIT */
/*
 * sink_lua.c: the Lua side of the network sink (sink.c): spec key `sink`
 * parsed into the plan, and the result's `sink` records.
 */
#include "sbx.h"

#include "sink.h"

#include <arpa/inet.h>
#include <string.h>

static const char *type_name(uint16_t t, char *buf, size_t size)
{
	static const struct {
		uint16_t t;
		const char *name;
	} names[] = {{1, "A"},	  {2, "NS"},	{5, "CNAME"},  {6, "SOA"},
		     {12, "PTR"}, {15, "MX"},	{16, "TXT"},   {28, "AAAA"},
		     {33, "SRV"}, {64, "SVCB"}, {65, "HTTPS"}, {255, "ANY"}};
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
		if (names[i].t == t)
			return names[i].name;
	snprintf(buf, size, "TYPE%u", (unsigned)t);
	return buf;
}

static void push_addr(lua_State *L, uint32_t a)
{
	lua_pushfstring(L, "%d.%d.%d.%d", (int)(a >> 24), (int)(a >> 16 & 255),
			(int)(a >> 8 & 255), (int)(a & 255));
}

/* The records each budget left out (sink.h), and their total */
static void push_dropped(lua_State *L, const struct sbx_sink *s)
{
	static const char *const names[SBX_SINK_KINDS] = {
	    [SBX_SINK_K_DNS] = "sink_dropped_dns",
	    [SBX_SINK_K_TCP] = "sink_dropped_tcp",
	    [SBX_SINK_K_UDP] = "sink_dropped_udp",
	    [SBX_SINK_K_HTTP] = "sink_dropped_http",
	};
	lua_Integer all = 0;
	for (int k = 0; k < SBX_SINK_KINDS; k++) {
		sbx_set_int(L, names[k], (lua_Integer)s->dropped[k]);
		all += (lua_Integer)s->dropped[k];
	}
	sbx_set_int(L, "sink_dropped", all);
}

void sbx_sink_push(lua_State *L, const struct sbx_sink *s)
{
	char tb[16];
	if (!s->plan || !s->plan->on)
		return;
	lua_createtable(L, (int)s->nev, 0);
	for (size_t i = 0; i < s->nev; i++) {
		const struct sbx_sink_event *e = &s->ev[i];
		lua_createtable(L, 0, 10);
		sbx_set_str(L, "kind", e->dns ? "dns" : "traffic");
		push_addr(L, e->saddr);
		lua_setfield(L, -2, "source");
		sbx_set_int(L, "source_port", e->sport);
		if (e->dns) {
			lua_pushlstring(L, e->data, e->len);
			lua_setfield(L, -2, "name");
			sbx_set_str(L, "type",
				    type_name(e->qtype, tb, sizeof tb));
			if (e->answer == 1)
				push_addr(L, s->plan->addr);
			else
				lua_pushstring(L, e->answer == 2 ? "NXDOMAIN"
								 : "none");
			lua_setfield(L, -2, "answer");
			push_addr(L, e->addr);
			lua_setfield(L, -2, "address");
			sbx_set_int(L, "count", (lua_Integer)e->count);
		} else {
			sbx_set_str(L, "protocol", e->udp ? "udp" : "tcp");
			push_addr(L, e->addr);
			lua_setfield(L, -2, "address");
			sbx_set_int(L, "port", e->port);
			sbx_set_int(L, "bytes", (lua_Integer)e->bytes);
			lua_pushlstring(L, e->data, e->len);
			lua_setfield(L, -2, "data");
			if (e->bytes > e->len) {
				lua_pushboolean(L, 1); /* data: the first */
				lua_setfield(L, -2, "cut");
			}
			if (e->replied) {
				lua_pushliteral(L, SBX_SINK_HTTP_REPLY);
				lua_setfield(L, -2, "reply");
			}
		}
		lua_rawseti(L, -2, (lua_Integer)i + 1);
	}
	lua_setfield(L, -2, "sink");
	push_dropped(L, s);
}

/* The address every A query is answered with, unless the spec names one */
#define SINK_ADDRESS "10.0.0.2"

void sbx_sink_spec(lua_State *L, struct sbx_sink_plan *p, int anchor)
{
	static const char *const keys[] = {"address", "ports", "nxdomain",
					   NULL};
	struct in_addr a;
	const char *addr;
	int t;

	memset(p, 0, sizeof *p);
	if (lua_getfield(L, 1, "sink") == LUA_TNIL) {
		lua_pop(L, 1);
		return;
	}
	t = lua_gettop(L);
	if (!lua_istable(L, t))
		luaL_error(L, "field 'sink' must be a table");
	sbx_check_keys(L, t, 0, keys);
	p->on = 1;
	addr = sbx_opt_str(L, t, "address", SINK_ADDRESS);
	if (inet_pton(AF_INET, addr, &a) != 1)
		luaL_error(L, "field 'sink.address' must be an IPv4 address");
	p->addr = ntohl(a.s_addr);
	if (lua_getfield(L, t, "ports") != LUA_TNIL) {
		if (!lua_istable(L, -1))
			luaL_error(L, "field 'sink.ports' must be a list");
		for (lua_Integer i = 1; lua_geti(L, -1, i) != LUA_TNIL; i++) {
			int ok;
			lua_Integer n = lua_tointegerx(L, -1, &ok);
			if (!ok || n < 1 || n > 65535)
				luaL_error(L, "field 'sink.ports' must list "
					      "ports 1 to 65535");
			if (p->nports == SBX_SINK_PORTS)
				luaL_error(L, "field 'sink.ports': at most %d",
					   SBX_SINK_PORTS);
			for (int k = 0; k < p->nports; k++)
				if (p->ports[k] == n)
					luaL_error(L,
						   "field 'sink.ports': "
						   "port %d twice",
						   (int)n);
			p->ports[p->nports++] = (uint16_t)n;
			lua_pop(L, 1);
		}
		lua_pop(L, 1);
	}
	lua_pop(L, 1);
	if (lua_getfield(L, t, "nxdomain") != LUA_TNIL) {
		luaL_Buffer b;
		int l = lua_gettop(L);
		if (!lua_istable(L, l))
			luaL_error(L, "field 'sink.nxdomain' must be a list");
		luaL_buffinit(L, &b);
		for (lua_Integer i = 1; lua_geti(L, l, i) != LUA_TNIL; i++) {
			size_t n;
			const char *s = lua_tolstring(L, -1, &n);
			if (!s || lua_type(L, -1) != LUA_TSTRING || n == 0 ||
			    n > 253 || strchr(s, '\n') || strlen(s) != n)
				luaL_error(L, "field 'sink.nxdomain' must list "
					      "names");
			lua_pop(L, 1);
			luaL_addlstring(&b, s, n); /* still in the table */
			luaL_addchar(&b, '\n');
		}
		lua_pop(L, 1);
		luaL_pushresult(&b);
		p->nxdomain = sbx_anchor_str(L, anchor, -1);
		lua_pop(L, 1);
	}
	lua_pop(L, 2);
}

/* The sink's fixed values, for sbx.sink to read rather than repeat:
 * core.sink_fixed = { address = "10.0.0.2", resolver = "127.0.0.53",
 * max_ports = 16, cap = 4096, budget = { dns =, tcp =, udp =, http = } } */
void sbx_open_sink(lua_State *L)
{
	static const struct {
		const char *name;
		int n;
	} budgets[] = {{"dns", SBX_SINK_DNS},
		       {"tcp", SBX_SINK_TCP},
		       {"udp", SBX_SINK_UDP},
		       {"http", SBX_SINK_HTTP}};
	struct in_addr a = {.s_addr = htonl(SBX_SINK_RESOLVER)};
	char ip[INET_ADDRSTRLEN];

	lua_createtable(L, 0, 5);
	lua_pushliteral(L, SINK_ADDRESS);
	lua_setfield(L, -2, "address");
	sbx_set_str(L, "resolver", inet_ntop(AF_INET, &a, ip, sizeof ip));
	sbx_set_int(L, "max_ports", SBX_SINK_PORTS);
	sbx_set_int(L, "cap", SBX_SINK_CAP);
	lua_createtable(L, 0, 4);
	for (size_t i = 0; i < sizeof budgets / sizeof budgets[0]; i++) {
		sbx_set_int(L, budgets[i].name, budgets[i].n);
	}
	lua_setfield(L, -2, "budget");
	lua_setfield(L, -2, "sink_fixed");
}
