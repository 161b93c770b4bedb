/* SPDX-License-Identifier: MIT */
/*
 * main.c: sbxlua, the stand-alone interpreter.
 *
 * The command line, LUA_INIT, the REPL, the error reports and the exit
 * statuses are those of Lua 5.4's lua.c, so that `sbxlua` can stand in for
 * `lua5.4`.  On top of that:
 *  - sbx.core is linked in and sits in package.preload;
 *  - package.path starts with sbxlua's module directory (moddir: the
 *    build tree's lua/, or $(PREFIX)/share/lua/5.4 when installed); the
 *    bundled scripts' directory is published as
 *    package.loaded["sbx.config"].luadir (the same lua/ in the build tree,
 *    $(PREFIX)/share/sbxlua/lua when installed);
 *  - the default package.path and package.cpath hold no relative template
 *    (no ./?.lua): nothing is loaded from the current directory;
 *  - a bare script name that is in that directory is run from there
 *    (`sbxlua run.lua ...` from anywhere), never from the current one;
 *  - scripts and Lua modules are loaded from their compiled form when
 *    make left a matching one in package.loaded["sbx.config"].luacdir
 *    (core/chunk.c; the paths so loaded are .compiled);
 *  - the REPL edits lines with libedit (opened when the REPL starts: a
 *    script never maps it), keeps ~/.sbxlua_history and has the facade in
 *    the global `sbx`;
 *  - --help lists the scripts, --version prints the version (VERSION,
 *    passed by make as SBX_VERSION).
 * See docs/interpreter.md.
 *
 * lua.c keeps its context in globals; here it lives in a struct interp on
 * main's stack, passed to pmain.  The one global left is the state that the
 * SIGINT handler stops.
 */
#include "heap.h"
#include "sbx.h"
#include "stamp.h"
#include "ttyfilter.h"

#include <dlfcn.h>
#include <editline/readline.h>
#include <limits.h>
#include <locale.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <lualib.h>

/* Where make install puts the scripts, the modules and their compiled
 * chunks (the Makefile passes each, from PREFIX). */
#ifndef SBX_PREFIX
#define SBX_PREFIX "/usr/local"
#endif
#ifndef SBX_LUADIR
#define SBX_LUADIR "/usr/local/share/sbxlua/lua"
#endif
#ifndef SBX_MODDIR
#define SBX_MODDIR "/usr/local/share/lua/5.4"
#endif
#ifndef SBX_LUACDIR
#define SBX_LUACDIR "/usr/local/lib/sbxlua/luac"
#endif
#ifndef SBX_LIBEDIT
#define SBX_LIBEDIT "/usr/lib/x86_64-linux-gnu/libedit.so.2"
#endif

#define PROGNAME "sbxlua"
#define BANNER PROGNAME " " SBX_VERSION " (" LUA_RELEASE ")"
#define PROMPT "> "
#define PROMPT2 ">> "
#define EOFMARK "<eof>"
#define INIT_VAR "LUA_INIT"
#define INIT_VAR_VERSION INIT_VAR LUA_VERSUFFIX
#define HISTORY_NAME ".sbxlua_history"
#define HISTORY_MAX 1000

/* Options seen by collect_args(). */
enum {
	HAS_ERROR = 1,	 /* bad option */
	HAS_I = 2,	 /* -i */
	HAS_V = 4,	 /* -v */
	HAS_E = 8,	 /* -e */
	HAS_NOENV = 16,	 /* -E */
	HAS_HELP = 32,	 /* --help */
	HAS_VERSION = 64 /* --version */
};

struct interp {
	int argc;
	char **argv;
	const char *progname;	/* prefix of error reports; NULL in the REPL */
	char luadir[PATH_MAX];	/* the scripts (run.lua, ...) */
	char moddir[PATH_MAX];	/* the modules: first in package.path */
	char luacdir[PATH_MAX]; /* the compiled chunks (core/chunk.c) */
	char history[PATH_MAX]; /* "" when there is no history file */
	locale_t input_locale;	/* the user's LC_CTYPE, for libedit; or 0 */
};

/*
 * libedit's functions, found when the REPL starts (edit_open); all NULL
 * until then, or when it cannot be opened: the REPL then reads plain lines.
 */
static struct edit {
	__typeof__(readline) *readline;
	__typeof__(rl_initialize) *initialize;
	__typeof__(using_history) *using_history;
	__typeof__(stifle_history) *stifle_history;
	__typeof__(read_history) *read_history;
	__typeof__(write_history) *write_history;
	__typeof__(add_history) *add_history;
	const char **readline_name;
} edit;

/* The state that a SIGINT interrupts: set before each protected call. */
static lua_State *globalL;

static void set_signal(int sig, void (*handler)(int))
{
	struct sigaction sa = {.sa_handler = handler};

	sigemptyset(&sa.sa_mask);
	sigaction(sig, &sa, NULL);
}

/* Hook installed by on_sigint: raises the error in the interpreter. */
static void stop_hook(lua_State *L, lua_Debug *ar)
{
	lua_sethook(L, NULL, 0, 0);
	luaL_error(L, "interrupted!");
}

/*
 * SIGINT while Lua runs: lua_sethook is the one Lua call that is safe in a
 * signal handler; the hook raises the error at the next instruction.  A
 * second SIGINT before that kills the process, as in lua.c.
 */
static void on_sigint(int sig)
{
	int mask = LUA_MASKCALL | LUA_MASKRET | LUA_MASKLINE | LUA_MASKCOUNT;

	set_signal(sig, SIG_DFL);
	lua_sethook(globalL, stop_hook, mask, 1);
}

/*
 * SIGINT at the prompt: the line typed so far is dropped and a new prompt
 * comes, as in a shell (lua.c dies there, and with it every object the
 * session holds: an explore session's captures would stay behind).  The
 * handler only notes it; the read it interrupts returns.
 */
static volatile sig_atomic_t prompt_interrupted;

static void on_prompt_sigint(int sig)
{
	(void)sig;
	prompt_interrupted = 1;
}

/* --help: the scripts, not Lua's flags (sbxlua(1) has those). */
static const char help_text[] =
    "usage: sbxlua SCRIPT [options] [args]   run one of sbxlua's scripts\n"
    "       sbxlua [lua-options] [file [args]]  Lua 5.4 with sbx built in\n"
    "       sbxlua                           the REPL: explore(), diff(), "
    "help()\n"
    "\n"
    "Scripts (each takes --help):\n"
    "  run.lua [options] PROG [ARGS]    run a program in the standard box, "
    "report\n"
    "                                   how it ended (exit code: the "
    "program's)\n"
    "  run.lua --explore PROG [ARGS]    the analysis box: record everything,\n"
    "                                   change nothing, then a verdict\n"
    "  learn.lua [options] PROG [ARGS]  write a seccomp profile that allows "
    "what\n"
    "                                   a run of PROG used\n"
    "  batch.lua [options] PATH...      many programs, one JSON line each, "
    "with\n"
    "                                   verdicts\n"
    "  check.lua                        what this host offers a box\n"
    "\n"
    "Options:\n"
    "  --help     this text\n"
    "  --version  the version\n"
    "Lua's own options (-e -l -i -v -E -W - --) are lua5.4's: see "
    "sbxlua(1).\n";

static void print_usage(const char *progname, const char *badoption)
{
	lua_writestringerror("%s: ", progname);
	if (badoption[1] == 'e' || badoption[1] == 'l')
		lua_writestringerror("'%s' needs argument\n", badoption);
	else
		lua_writestringerror("unrecognized option '%s'\n", badoption);
	lua_writestringerror("%s", help_text);
}

static void print_version(void)
{
	lua_writestring(BANNER, strlen(BANNER));
	lua_writeline();
}

static void message(const char *progname, const char *msg)
{
	if (progname)
		lua_writestringerror("%s: ", progname);
	lua_writestringerror("%s\n", msg);
}

/* Prints and pops the error message on top of the stack, if any. */
static int report(struct interp *in, lua_State *L, int status)
{
	if (status != LUA_OK) {
		const char *msg = lua_tostring(L, -1);

		message(in->progname,
			msg ? msg : "(error object is not a string)");
		lua_pop(L, 1);
	}
	return status;
}

/* Message handler of every call: the message plus a traceback. */
static int msghandler(lua_State *L)
{
	const char *msg = lua_tostring(L, 1);

	if (msg == NULL) {
		if (luaL_callmeta(L, 1, "__tostring") &&
		    lua_type(L, -1) == LUA_TSTRING)
			return 1;
		msg = lua_pushfstring(L, "(error object is a %s value)",
				      luaL_typename(L, 1));
	}
	luaL_traceback(L, L, msg, 1);
	return 1;
}

/* lua_pcall with the traceback handler, interruptible by SIGINT. */
static int docall(lua_State *L, int narg, int nres)
{
	int status;
	int base = lua_gettop(L) - narg;

	lua_pushcfunction(L, msghandler);
	lua_insert(L, base);
	globalL = L;
	set_signal(SIGINT, on_sigint);
	status = lua_pcall(L, narg, nres, base);
	set_signal(SIGINT, SIG_DFL);
	lua_remove(L, base);
	return status;
}

static int dochunk(struct interp *in, lua_State *L, int status)
{
	if (status == LUA_OK)
		status = docall(L, 0, 0);
	return report(in, L, status);
}

static int dofile(struct interp *in, lua_State *L, const char *name)
{
	return dochunk(in, L, luaL_loadfile(L, name));
}

static int dostring(struct interp *in, lua_State *L, const char *s,
		    const char *name)
{
	return dochunk(in, L, luaL_loadbuffer(L, s, strlen(s), name));
}

/* -l mod, -l g=mod: g = require(mod). argv is not modified. */
static int dolibrary(struct interp *in, lua_State *L, const char *spec)
{
	const char *eq = strchr(spec, '=');
	const char *modname = eq ? eq + 1 : spec;
	size_t globlen = eq ? (size_t)(eq - spec) : strlen(spec);
	int status;

	lua_getglobal(L, "require");
	lua_pushstring(L, modname);
	status = docall(L, 1, 1);
	if (status == LUA_OK) {
		const char *globname = lua_pushlstring(L, spec, globlen);

		lua_insert(L, -2);
		lua_setglobal(L, globname);
		lua_pop(L, 1);
	}
	return report(in, L, status);
}

/* Pushes arg[1..#arg], the arguments of the main script. */
static int pushargs(lua_State *L)
{
	int i, n;

	if (lua_getglobal(L, "arg") != LUA_TTABLE)
		luaL_error(L, "'arg' is not a table");
	n = (int)luaL_len(L, -1);
	luaL_checkstack(L, n + 3, "too many arguments to script");
	for (i = 1; i <= n; i++)
		lua_rawgeti(L, -i, i);
	lua_remove(L, -i);
	return n;
}

static int is_file(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/*
 * Loads a script.  A bare name (no '/') that names a file in the bundled
 * directory is that file, whatever the current directory holds: a box run
 * with --rw .:/work may have written a run.lua there, and `sbxlua run.lua`
 * must not run it.  Any other name is opened as typed, as lua.c does.
 */
static int load_script(const struct interp *in, lua_State *L, const char *name)
{
	char path[PATH_MAX];
	int n;

	if (strchr(name, '/') != NULL)
		return sbx_chunk_load(L, name);
	n = snprintf(path, sizeof(path), "%s/%s", in->luadir, name);
	if (n < 0 || (size_t)n >= sizeof(path) || !is_file(path))
		return sbx_chunk_load(L, name);
	return sbx_chunk_load(L, path);
}

static int handle_script(struct interp *in, lua_State *L, char **argv)
{
	int status;

	if (strcmp(argv[0], "-") == 0 && strcmp(argv[-1], "--") != 0)
		status = luaL_loadfile(L, NULL); /* stdin */
	else
		status = load_script(in, L, argv[0]);
	if (status == LUA_OK) {
		int n = pushargs(L);

		status = docall(L, n, LUA_MULTRET);
	}
	return report(in, L, status);
}

/*
 * Checks the options and sets *first to the index of the script (0: none).
 * On HAS_ERROR, *first is the index of the bad option.
 */
static int collect_args(char **argv, int *first)
{
	int args = 0;
	int i;

	*first = 0;
	if (argv[0] == NULL)
		return 0;
	for (i = 1; argv[i] != NULL; i++) {
		*first = i;
		if (argv[i][0] != '-')
			return args;
		switch (argv[i][1]) {
		case '-': /* --, --help, --version */
			if (strcmp(argv[i], "--help") == 0)
				return args | HAS_HELP;
			if (strcmp(argv[i], "--version") == 0)
				return args | HAS_VERSION;
			if (argv[i][2] != '\0')
				return HAS_ERROR;
			*first = argv[i + 1] != NULL ? i + 1 : 0;
			return args;
		case '\0': /* - is the script: stdin */
			return args;
		case 'E':
			if (argv[i][2] != '\0')
				return HAS_ERROR;
			args |= HAS_NOENV;
			break;
		case 'W':
			if (argv[i][2] != '\0')
				return HAS_ERROR;
			break;
		case 'i': /* -i implies -v */
			args |= HAS_I;
			/* fall through */
		case 'v':
			if (argv[i][2] != '\0')
				return HAS_ERROR;
			args |= HAS_V;
			break;
		case 'e':
			args |= HAS_E;
			/* fall through */
		case 'l': /* both take an argument, maybe glued to them */
			if (argv[i][2] == '\0') {
				i++;
				if (argv[i] == NULL || argv[i][0] == '-')
					return HAS_ERROR;
			}
			break;
		default:
			return HAS_ERROR;
		}
	}
	*first = 0;
	return args;
}

/* Runs -e, -l and -W in order; the options end at argv[n]. */
static int runargs(struct interp *in, lua_State *L, int n)
{
	char **argv = in->argv;
	int i;

	for (i = 1; i < n; i++) {
		int option = argv[i][1];
		const char *extra;
		int status;

		switch (option) {
		case 'e':
		case 'l':
			extra = argv[i] + 2;
			if (*extra == '\0')
				extra = argv[++i];
			status = option == 'e'
				     ? dostring(in, L, extra, "=(command line)")
				     : dolibrary(in, L, extra);
			if (status != LUA_OK)
				return 0;
			break;
		case 'W':
			lua_warning(L, "@on", 0);
			break;
		default:
			break;
		}
	}
	return 1;
}

static int handle_luainit(struct interp *in, lua_State *L)
{
	const char *name = "=" INIT_VAR_VERSION;
	const char *init = getenv(name + 1);

	if (init == NULL) {
		name = "=" INIT_VAR;
		init = getenv(name + 1);
	}
	if (init == NULL)
		return LUA_OK;
	if (init[0] == '@')
		return dofile(in, L, init + 1);
	return dostring(in, L, init, name);
}

/* arg: the script at 0, its arguments above, the interpreter's below. */
static void create_arg_table(lua_State *L, char **argv, int argc, int script)
{
	int narg = argc - (script + 1);
	int i;

	lua_createtable(L, narg > 0 ? narg : 0, script + 1);
	for (i = 0; i < argc; i++) {
		lua_pushstring(L, argv[i]);
		lua_rawseti(L, -2, i - script);
	}
	lua_setglobal(L, "arg");
}

/* dir = the directory of the executable (its real path). */
static int exe_dir(char *dir, size_t size)
{
	ssize_t len = readlink("/proc/self/exe", dir, size);
	char *slash;

	if (len <= 0 || (size_t)len >= size)
		return 0;
	dir[len] = '\0';
	slash = strrchr(dir, '/');
	if (slash == NULL)
		return 0;
	*slash = '\0';
	return 1;
}

/* dst = base + rest, if it fits and holds no ';' or '?' (they would break
 * the package.path templates). */
static int join(char *dst, size_t size, const char *base, const char *rest)
{
	int n = snprintf(dst, size, "%s%s", base, rest);

	return n >= 0 && (size_t)n < size && strpbrk(dst, ";?") == NULL;
}

/*
 * dir = <directory of the executable>/lua, if that holds the facade (the
 * build tree, or an install that keeps them together).  Only the
 * executable's own location counts here, never the current directory or
 * the environment.
 */
static int exe_luadir(char *dir, size_t size)
{
	char exe[PATH_MAX];
	char probe[PATH_MAX];

	if (!exe_dir(exe, sizeof(exe)) || !join(dir, size, exe, "/lua"))
		return 0;
	return join(probe, sizeof(probe), dir, "/sbx/init.lua") &&
	       is_file(probe);
}

/*
 * An installed tree moved from PREFIX (make install DESTDIR=D, run from
 * D): the executable is <P>/bin/sbxlua and <P> holds the scripts and the
 * modules where PREFIX would.  Again only the executable's own location
 * counts: <P> is the tree the executable was installed into.
 */
static int relocated(struct interp *in)
{
	static const char prefix[] = SBX_PREFIX;
	size_t plen = sizeof(prefix) - 1;
	char p[PATH_MAX];
	char probe[PATH_MAX];
	char *slash;

	if (!exe_dir(p, sizeof(p)) || (slash = strrchr(p, '/')) == NULL ||
	    strcmp(slash, "/bin") != 0)
		return 0;
	*slash = '\0';
	if (strcmp(p, prefix) == 0 || strncmp(SBX_LUADIR, prefix, plen) != 0 ||
	    strncmp(SBX_MODDIR, prefix, plen) != 0 ||
	    strncmp(SBX_LUACDIR, prefix, plen) != 0)
		return 0;
	if (!join(in->luadir, sizeof(in->luadir), p, SBX_LUADIR + plen) ||
	    !join(in->moddir, sizeof(in->moddir), p, SBX_MODDIR + plen) ||
	    !join(in->luacdir, sizeof(in->luacdir), p, SBX_LUACDIR + plen))
		return 0;
	return join(probe, sizeof(probe), in->moddir, "/sbx/init.lua") &&
	       is_file(probe);
}

/*
 * The scripts, the modules and their compiled chunks: in the build tree
 * (lua/ next to the executable) lua/ for both and build/luac; else where
 * make install put them, as PREFIX said at build time, or under the
 * prefix the installed tree was moved to (directories only root, or the
 * user who installed there, writes).
 */
static void find_luadir(struct interp *in)
{
	int n;

	if (!exe_luadir(in->luadir, sizeof(in->luadir))) {
		if (relocated(in))
			return;
		snprintf(in->luadir, sizeof(in->luadir), "%s", SBX_LUADIR);
		snprintf(in->moddir, sizeof(in->moddir), "%s", SBX_MODDIR);
		snprintf(in->luacdir, sizeof(in->luacdir), "%s", SBX_LUACDIR);
		return;
	}
	snprintf(in->moddir, sizeof(in->moddir), "%s", in->luadir);
	n = snprintf(in->luacdir, sizeof(in->luacdir), "%.*s/build/luac",
		     (int)(strlen(in->luadir) - 4), in->luadir);
	if (n < 0 || (size_t)n >= sizeof(in->luacdir))
		in->luacdir[0] = '\0';
}

/* Pushes the templates of path that are absolute paths, in order. */
static void push_absolute(lua_State *L, const char *path)
{
	luaL_Buffer b;

	luaL_buffinit(L, &b);
	while (*path != '\0') {
		size_t len = strcspn(path, LUA_PATH_SEP);

		if (path[0] == '/') {
			if (luaL_bufflen(&b) > 0)
				luaL_addchar(&b, *LUA_PATH_SEP);
			luaL_addlstring(&b, path, len);
		}
		path += len;
		if (*path != '\0')
			path++;
	}
	luaL_pushresult(&b);
}

/*
 * package[field] as loadlib.c's setpath makes it, from the variable
 * <envname>_5_4 or <envname> (unless -E), except that the default, and
 * what a ";;" in the variable stands for, is dft without its relative
 * templates.  Lua's own default ends in ./?.lua, ./?/init.lua and ./?.so:
 * the current directory, where a box run with --rw .:/work may have left a
 * cjson.lua that the next require would run with the caller's rights.  A
 * relative template the user writes in the variable stays: that is the
 * user's choice, as under lua.c.
 */
static void set_path(lua_State *L, const char *field, const char *envname,
		     const char *dft, const char *prefix)
{
	const char *env = NULL;
	const char *mark;
	const char *def;
	luaL_Buffer b;

	lua_getfield(L, LUA_REGISTRYINDEX, "LUA_NOENV");
	if (!lua_toboolean(L, -1)) {
		env =
		    getenv(lua_pushfstring(L, "%s%s", envname, LUA_VERSUFFIX));
		lua_pop(L, 1);
		if (env == NULL)
			env = getenv(envname);
	}
	lua_pop(L, 1);
	push_absolute(L, dft);
	def = lua_tostring(L, -1);
	mark = env != NULL ? strstr(env, LUA_PATH_SEP LUA_PATH_SEP) : NULL;
	luaL_buffinit(L, &b);
	luaL_addstring(&b, prefix);
	if (env == NULL) {
		luaL_addstring(&b, def);
	} else if (mark == NULL) {
		luaL_addstring(&b, env);
	} else {
		if (mark > env) {
			luaL_addlstring(&b, env, (size_t)(mark - env));
			luaL_addchar(&b, *LUA_PATH_SEP);
		}
		luaL_addstring(&b, def);
		if (mark[2] != '\0') {
			luaL_addchar(&b, *LUA_PATH_SEP);
			luaL_addstring(&b, mark + 2);
		}
	}
	luaL_pushresult(&b);
	lua_setfield(L, -3, field);
	lua_pop(L, 1); /* def */
}

/*
 * What sbxlua adds to the standard libraries: sbx.core in
 * package.preload, the bundled directory first in package.path, no
 * relative template in the default paths, and package.loaded["sbx.config"].
 */
static void open_sbx(struct interp *in, lua_State *L)
{
	const char *prefix;

	luaL_getsubtable(L, LUA_REGISTRYINDEX, LUA_PRELOAD_TABLE);
	lua_pushcfunction(L, luaopen_sbx_core);
	lua_setfield(L, -2, "sbx.core");
	lua_pop(L, 1);

	luaL_getsubtable(L, LUA_REGISTRYINDEX, LUA_LOADED_TABLE);
	lua_getfield(L, -1, LUA_LOADLIBNAME);
	prefix = lua_pushfstring(L, "%s/?.lua;%s/?/init.lua;", in->moddir,
				 in->moddir);
	lua_insert(L, -2);
	set_path(L, "path", "LUA_PATH", LUA_PATH_DEFAULT, prefix);
	set_path(L, "cpath", "LUA_CPATH", LUA_CPATH_DEFAULT, "");
	lua_pop(L, 2);

	lua_createtable(L, 0, 5);
	sbx_set_str(L, "luadir", in->luadir);
	sbx_set_str(L, "moddir", in->moddir);
	sbx_set_str(L, "luacdir", in->luacdir);
	sbx_chunk_setup(L, in->luacdir);
	lua_setfield(L, -2, "compiled");
	lua_pushliteral(L, SBX_VERSION);
	lua_setfield(L, -2, "version");
	lua_setfield(L, -2, "sbx.config");
	lua_pop(L, 1);
}

/* ---- the REPL ---- */

/*
 * libedit is opened by the REPL alone, so that no script maps it (nor
 * libtinfo, libbsd and libmd with it): by the one absolute path the build
 * found (SBX_LIBEDIT, pkg-config's libdir), never searched for by name.
 * Every symbol must be there, else none is used.  Returns 1 when it is.
 */
static int edit_open(void)
{
	void *h = dlopen(SBX_LIBEDIT, RTLD_NOW | RTLD_LOCAL);
	struct edit e;

	if (h == NULL)
		return 0;
	e.readline = (__typeof__(e.readline))dlsym(h, "readline");
	e.initialize = (__typeof__(e.initialize))dlsym(h, "rl_initialize");
	e.using_history =
	    (__typeof__(e.using_history))dlsym(h, "using_history");
	e.stifle_history =
	    (__typeof__(e.stifle_history))dlsym(h, "stifle_history");
	e.read_history = (__typeof__(e.read_history))dlsym(h, "read_history");
	e.write_history =
	    (__typeof__(e.write_history))dlsym(h, "write_history");
	e.add_history = (__typeof__(e.add_history))dlsym(h, "add_history");
	e.readline_name = (const char **)dlsym(h, "rl_readline_name");
	if (!e.readline || !e.initialize || !e.using_history ||
	    !e.stifle_history || !e.read_history || !e.write_history ||
	    !e.add_history || !e.readline_name) {
		dlclose(h);
		return 0;
	}
	edit = e; /* the handle stays open until the process ends */
	return 1;
}

/* A line without libedit, as lua.c reads one without readline: the
 * caller frees it; NULL at end of input. */
static char *plain_readline(const char *prompt)
{
	char buf[512]; /* lua.c's LUA_MAXINPUT */

	fputs(prompt, stdout);
	fflush(stdout);
	if (fgets(buf, sizeof(buf), stdin) == NULL)
		return NULL;
	return strdup(buf);
}

/*
 * Lua code runs in the "C" locale, as under lua.c, but libedit decodes
 * multibyte input by LC_CTYPE: readline runs in the user's LC_CTYPE.
 *
 * History in ~/.sbxlua_history; a failure only loses the history.  The
 * whole (stifled) history is written after each line: libedit's
 * append_history(n) writes n + 1 entries.
 */
static void repl_open(struct interp *in)
{
	const char *home = getenv("HOME");
	locale_t old = (locale_t)0;
	int n;

	in->history[0] = '\0';
	if (edit.readline == NULL && !edit_open())
		return; /* plain lines, no history */
	in->input_locale = newlocale(LC_CTYPE_MASK, "", (locale_t)0);
	if (in->input_locale != (locale_t)0)
		old = uselocale(in->input_locale); /* libedit notes it here */
	*edit.readline_name = PROGNAME;
	edit.initialize();
	edit.using_history();
	edit.stifle_history(HISTORY_MAX);
	if (old != (locale_t)0)
		uselocale(old);

	if (home == NULL || home[0] == '\0')
		return;
	n = snprintf(in->history, sizeof(in->history), "%s/%s", home,
		     HISTORY_NAME);
	if (n < 0 || (size_t)n >= sizeof(in->history))
		in->history[0] = '\0';
	else
		edit.read_history(in->history);
}

static void repl_close(struct interp *in)
{
	if (in->input_locale != (locale_t)0)
		freelocale(in->input_locale);
	in->input_locale = (locale_t)0;
}

static void history_save(struct interp *in, const char *line)
{
	if (line[0] == '\0' || edit.add_history == NULL)
		return;
	edit.add_history(line);
	if (in->history[0] != '\0')
		edit.write_history(in->history);
}

/* The global `sbx`, for the user's convenience; a failure only warns. */
static void load_facade(struct interp *in, lua_State *L)
{
	const char *msg;
	size_t len;

	lua_getglobal(L, "require");
	lua_pushliteral(L, "sbx");
	if (docall(L, 1, 1) == LUA_OK) {
		lua_setglobal(L, "sbx");
		return;
	}
	msg = lua_tostring(L, -1);
	if (msg == NULL)
		msg = "(error object is not a string)";
	len = strcspn(msg, "\n"); /* the reason, not the paths tried */
	if (len > 0 && msg[len - 1] == ':')
		len--;
	fprintf(stderr, "%s: warning: global 'sbx' not set: %.*s\n",
		in->progname ? in->progname : PROGNAME, (int)len, msg);
	fflush(stderr);
	lua_pop(L, 1);
}

/*
 * The prompt: _PROMPT or _PROMPT2 through tostring, else the default.  It
 * leaves one value on the stack, which keeps the string alive.
 */
static const char *get_prompt(lua_State *L, int firstline)
{
	const char *p;

	if (lua_getglobal(L, firstline ? "_PROMPT" : "_PROMPT2") == LUA_TNIL)
		return firstline ? PROMPT : PROMPT2;
	p = luaL_tolstring(L, -1, NULL);
	lua_remove(L, -2);
	return p;
}

/*
 * Reads a line and pushes it; 0 at end of input, 2 when SIGINT dropped
 * the line (an empty one is pushed).  The line readline
 * allocates is freed right after it is pushed: a memory error in that push
 * loses it, but also ends the interpreter.
 */
static int pushline(struct interp *in, lua_State *L, int firstline)
{
	const char *prompt = get_prompt(L, firstline);
	locale_t old = (locale_t)0;
	char *b;
	size_t len;

	if (in->input_locale != (locale_t)0)
		old = uselocale(in->input_locale);
	prompt_interrupted = 0;
	set_signal(SIGINT, on_prompt_sigint);
	b = edit.readline ? edit.readline(prompt) : plain_readline(prompt);
	set_signal(SIGINT, SIG_DFL);
	if (old != (locale_t)0)
		uselocale(old);
	lua_pop(L, 1); /* the prompt, kept on the stack while in use */
	if (prompt_interrupted) {
		/* the line is dropped: an empty one runs nothing */
		free(b);
		fputs("\n", stdout);
		fflush(stdout);
		lua_pushliteral(L, "");
		return 2;
	}
	if (b == NULL)
		return 0;
	len = strlen(b);
	if (len > 0 && b[len - 1] == '\n')
		b[--len] = '\0';
	if (firstline && b[0] == '=') /* Lua 5.2's `=expr` */
		lua_pushfstring(L, "return %s", b + 1);
	else
		lua_pushlstring(L, b, len);
	free(b);
	return 1;
}

/* Tries the line as `return <line>;`, so that expressions print. */
static int addreturn(struct interp *in, lua_State *L)
{
	const char *line = lua_tostring(L, -1);
	const char *retline = lua_pushfstring(L, "return %s;", line);
	int status = luaL_loadbuffer(L, retline, strlen(retline), "=stdin");

	if (status == LUA_OK) {
		lua_remove(L, -2);
		history_save(in, line);
	} else {
		lua_pop(L, 2);
	}
	return status;
}

/* A syntax error at <eof>: the statement may go on on the next line. */
static int incomplete(lua_State *L, int status)
{
	size_t len, marklen = sizeof(EOFMARK) - 1;
	const char *msg;

	if (status != LUA_ERRSYNTAX)
		return 0;
	msg = lua_tolstring(L, -1, &len);
	return len >= marklen && strcmp(msg + len - marklen, EOFMARK) == 0;
}

/*
 * Compiles the text at index 1, reading continuation lines while it is
 * incomplete.  At end of input the syntax error stands (lua.c 5.4.4
 * reported the prompt instead).
 */
static int multiline(struct interp *in, lua_State *L)
{
	size_t len;
	const char *line = lua_tolstring(L, 1, &len);
	int status = luaL_loadbuffer(L, line, len, "=stdin");

	while (incomplete(L, status)) {
		int got = pushline(in, L, 0);
		if (got == 0) {
			lua_writeline(); /* end the prompt's line */
			break;
		}
		if (got == 2) {	       /* the whole statement is dropped */
			lua_pop(L, 2); /* the empty line, the syntax error */
			return luaL_loadbuffer(L, "", 0, "=stdin");
		}
		lua_remove(L, -2); /* the syntax error */
		lua_pushliteral(L, "\n");
		lua_insert(L, -2);
		lua_concat(L, 3);
		line = lua_tolstring(L, 1, &len);
		status = luaL_loadbuffer(L, line, len, "=stdin");
	}
	history_save(in, line);
	return status;
}

/* Leaves one compiled chunk (or an error message) on the stack; -1 at EOF. */
static int loadline(struct interp *in, lua_State *L)
{
	int status;

	lua_settop(L, 0);
	if (!pushline(in, L, 1))
		return -1;
	status = addreturn(in, L);
	if (status != LUA_OK)
		status = multiline(in, L);
	lua_remove(L, 1);
	return status;
}

/*
 * Tables print readably through lua-inspect (Debian's lua-inspect ships it
 * for Lua 5.1 to 5.3 only: the same pure Lua file serves 5.4), loaded at
 * the first table the REPL prints, never before and never by a script.
 * It is looked up on package.path (which holds no relative template
 * unless the user's LUA_PATH adds one), then in the system's own
 * directories, which only root writes.
 */
#define INSPECT_KEY "sbx.repl.inspect"
static const char inspect_loader[] =
    "local ok, m = pcall(require, 'inspect')\n"
    "if not ok then\n"
    "  for _, v in ipairs { '5.4', '5.3' } do\n"
    "    local f = loadfile('/usr/share/lua/' .. v .. '/inspect.lua', 't')\n"
    "    if f then m = f() break end\n"
    "  end\n"
    "end\n"
    "if type(m) == 'table' then m = m.inspect end\n"
    "if type(m) == 'function' then return m end\n";

/* Pushes lua-inspect's function and returns 1, or returns 0 when it is
 * not there (said once; tables then print as addresses). */
static int push_inspect(struct interp *in, lua_State *L)
{
	int t = lua_getfield(L, LUA_REGISTRYINDEX, INSPECT_KEY);

	if (t == LUA_TFUNCTION)
		return 1;
	lua_pop(L, 1);
	if (t != LUA_TNIL)
		return 0; /* looked for and not found */
	if (luaL_loadbufferx(L, inspect_loader, sizeof(inspect_loader) - 1,
			     "=inspect", "t") != LUA_OK ||
	    lua_pcall(L, 0, 1, 0) != LUA_OK || !lua_isfunction(L, -1)) {
		lua_pop(L, 1);
		lua_pushboolean(L, 0);
		lua_setfield(L, LUA_REGISTRYINDEX, INSPECT_KEY);
		fprintf(stderr,
			"%s: tables print as addresses: lua-inspect is not "
			"installed (apt-get install lua-inspect)\n",
			in->progname ? in->progname : PROGNAME);
		fflush(stderr);
		return 0;
	}
	lua_pushvalue(L, -1);
	lua_setfield(L, LUA_REGISTRYINDEX, INSPECT_KEY);
	return 1;
}

/* Replaces each table among the n values at the bottom of the stack (but
 * one with a __tostring of its own) with its text by lua-inspect. */
static void inspect_tables(struct interp *in, lua_State *L, int n)
{
	for (int i = 1; i <= n; i++) {
		if (lua_type(L, i) != LUA_TTABLE)
			continue;
		if (luaL_getmetafield(L, i, "__tostring") != LUA_TNIL) {
			lua_pop(L, 1);
			continue;
		}
		if (!push_inspect(in, L))
			return;
		lua_pushvalue(L, i);
		if (lua_pcall(L, 1, 1, 0) == LUA_OK &&
		    lua_type(L, -1) == LUA_TSTRING)
			lua_replace(L, i);
		else
			lua_pop(L, 1); /* an error: the table prints as is */
	}
}

/*
 * On a terminal, replaces each of the n values at the bottom of the stack
 * with its text as print would show it, through the filter a box's own
 * output to a terminal passes (ttyfilter.c): a line's value is often what
 * a box wrote (captured output, a name it chose), and it must not move the
 * cursor, retitle the window or make the terminal answer as if typed.
 */
static void filter_results(lua_State *L, int n)
{
	if (!isatty(STDOUT_FILENO))
		return;
	for (int i = 1; i <= n; i++) {
		struct sbx_ttyf f;
		luaL_Buffer b;
		size_t len, k;
		const char *s = luaL_tolstring(L, i, &len);
		char *out = luaL_buffinitsize(
		    L, &b, len + SBX_TTYF_SEQ + 2 + SBX_TTYF_END);

		sbx_ttyf_init(&f);
		k = sbx_ttyf_run(&f, s, len, out);
		k += sbx_ttyf_end(&f, out + k);
		luaL_pushresultsize(&b, k);
		lua_replace(L, i);
		lua_pop(L, 1); /* luaL_tolstring's text */
	}
}

/* Prints the values a line returned, with the global print; tables
 * through lua-inspect, all through the terminal filter on a terminal. */
static void print_results(struct interp *in, lua_State *L)
{
	int n = lua_gettop(L);

	if (n == 0)
		return;
	luaL_checkstack(L, LUA_MINSTACK, "too many results to print");
	inspect_tables(in, L, n);
	filter_results(L, n);
	lua_getglobal(L, "print");
	lua_insert(L, 1);
	if (lua_pcall(L, n, 0, 0) != LUA_OK)
		message(in->progname,
			lua_pushfstring(L, "error calling 'print' (%s)",
					lua_tostring(L, -1)));
}

/* The REPL's globals `explore`, `diff` and `help` (sbx.explore), each
 * a stub that loads the module on its first call; one already set stays. */
static const char explore_stubs[] =
    "local names = { 'explore', 'diff', 'help' }\n"
    "for _, n in ipairs(names) do\n"
    "  if _G[n] == nil then\n"
    "    _G[n] = function(...)\n"
    "      local m = require 'sbx.explore'\n"
    "      for _, k in ipairs(names) do _G[k] = m[k] end\n"
    "      return m[n](...)\n"
    "    end\n"
    "  end\n"
    "end\n";

static void load_explore(lua_State *L)
{
	if (luaL_loadbufferx(L, explore_stubs, sizeof explore_stubs - 1,
			     "=explore", "t") != LUA_OK ||
	    lua_pcall(L, 0, 0, 0) != LUA_OK)
		lua_pop(L, 1); /* only the helpers are missing */
}

static void do_repl(struct interp *in, lua_State *L)
{
	const char *oldprogname = in->progname;
	int status;

	load_facade(in, L);
	load_explore(L);
	repl_open(in);
	in->progname = NULL; /* no program name on errors in the REPL */
	while ((status = loadline(in, L)) != -1) {
		if (status == LUA_OK)
			status = docall(L, 0, LUA_MULTRET);
		if (status == LUA_OK)
			print_results(in, L);
		else
			report(in, L, status);
	}
	lua_settop(L, 0);
	lua_writeline();
	repl_close(in);
	in->progname = oldprogname;
}

/* ---- main ---- */

/*
 * The state, as luaL_newstate makes it but for its memory (heap.c): an
 * unprotected error's message on stderr, and warnings off until "@on"
 * (lua -W), each "Lua warning: " and its pieces on stderr.
 */
static int panic(lua_State *L)
{
	const char *msg = lua_tostring(L, -1);

	lua_writestringerror("PANIC: unprotected error in call to Lua API "
			     "(%s)\n",
			     msg ? msg : "error object is not a string");
	return 0;
}

static void warn_to(lua_State *L, int on, int cont);

static void warn_piece(void *ud, const char *msg, int tocont)
{
	lua_writestringerror("%s", msg);
	if (!tocont)
		lua_writestringerror("%s", "\n");
	warn_to(ud, 1, tocont);
}

static void warn_on(void *ud, const char *msg, int tocont)
{
	if (!tocont && msg[0] == '@') {
		if (strcmp(msg, "@off") == 0)
			warn_to(ud, 0, 0);
		return;
	}
	lua_writestringerror("%s", "Lua warning: ");
	warn_piece(ud, msg, tocont);
}

static void warn_off(void *ud, const char *msg, int tocont)
{
	if (!tocont && strcmp(msg, "@on") == 0)
		warn_to(ud, 1, 0);
}

/* on: warnings printed; cont: the next piece continues a message */
static void warn_to(lua_State *L, int on, int cont)
{
	lua_setwarnf(L, cont ? warn_piece : on ? warn_on : warn_off, L);
}

static lua_State *new_state(void)
{
	lua_State *L = lua_newstate(sbx_heap_alloc(), NULL);

	if (L) {
		lua_atpanic(L, panic);
		warn_to(L, 0, 0);
	}
	return L;
}

static int pmain(lua_State *L)
{
	struct interp *in = lua_touserdata(L, 1);
	char **argv = in->argv;
	int script;
	int args = collect_args(argv, &script);
	int optlim = script > 0 ? script : in->argc;

	luaL_checkversion(L);
	if (args == HAS_ERROR) {
		print_usage(in->progname, argv[script]);
		return 0;
	}
	if (args & (HAS_HELP | HAS_VERSION)) {
		if (args & HAS_HELP)
			lua_writestring(help_text, sizeof(help_text) - 1);
		else
			print_version();
		lua_pushboolean(L, 1);
		return 1;
	}
	if (args & HAS_V)
		print_version();
	if (args & HAS_NOENV) {
		/* the package library then ignores LUA_PATH and LUA_CPATH */
		lua_pushboolean(L, 1);
		lua_setfield(L, LUA_REGISTRYINDEX, "LUA_NOENV");
	}
	luaL_openlibs(L);
	open_sbx(in, L);
	create_arg_table(L, argv, in->argc, script);
	lua_gc(L, LUA_GCRESTART);
	lua_gc(L, LUA_GCGEN, 0, 0);
	if (!(args & HAS_NOENV) && handle_luainit(in, L) != LUA_OK)
		return 0;
	if (!runargs(in, L, optlim))
		return 0;
	if (script > 0 && handle_script(in, L, argv + script) != LUA_OK)
		return 0;
	if (args & HAS_I) {
		do_repl(in, L);
	} else if (script == 0 && !(args & (HAS_E | HAS_V))) {
		if (isatty(STDIN_FILENO)) {
			print_version();
			do_repl(in, L);
		} else if (dofile(in, L, NULL) != LUA_OK) {
			return 0;
		}
	}
	lua_pushboolean(L, 1);
	return 1;
}

int main(int argc, char **argv)
{
	struct interp in = {.argc = argc, .argv = argv, .progname = PROGNAME};
	lua_State *L;
	int status, result;
	struct timespec t0;

	/* start-up stamps (stamp.h), when SBXLUA_STAMPS is set */
	if (clock_gettime(CLOCK_MONOTONIC, &t0) == 0)
		sbx_stamp_main((uint64_t)t0.tv_sec * 1000000000u +
			       (uint64_t)t0.tv_nsec);
	if (argv[0] != NULL && argv[0][0] != '\0')
		in.progname = argv[0];
	find_luadir(&in);
	L = new_state();
	if (L == NULL) {
		message(in.progname, "cannot create state: not enough memory");
		return EXIT_FAILURE;
	}
	lua_gc(L, LUA_GCSTOP); /* until the state is built */
	lua_pushcfunction(L, pmain);
	lua_pushlightuserdata(L, &in);
	status = lua_pcall(L, 1, 1, 0);
	result = lua_toboolean(L, -1);
	report(&in, L, status);
	lua_close(L);
	return result && status == LUA_OK ? EXIT_SUCCESS : EXIT_FAILURE;
}
