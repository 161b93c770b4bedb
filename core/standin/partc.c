/* SPDX-License-Identifier: MIT */
/*
 * The stand-ins of desktop capture and hiding tools: ImageMagick's import
 * and xwd find no X display, arecord no capture device (it tries the
 * first card's), steghide reads its files, tries the one it would write
 * and refuses the picture's format, as each does on a server with no
 * desktop and no sound card.
 */
#include "standin.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

/* the DISPLAY the sample set, as X clients print it */
static const char *display(void)
{
	const char *d = su_env("DISPLAY");

	return d && *d ? d : "";
}

static int run_import(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	su_err("import: unable to open X server `%s' @ "
	       "error/import.c/ImportImageCommand/346.\n",
	       display());
	return 1;
}

static int run_xwd(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	su_err("xwd:  unable to open display '%s'\n", display());
	return 1;
}

/* arecord opens the first card's capture device; a server has none */
static int run_arecord(int argc, char **argv)
{
	int fd = open("/dev/snd/pcmC0D0c", O_RDONLY | O_CLOEXEC);

	(void)argc;
	(void)argv;
	if (fd >= 0)
		close(fd);
	su_err("arecord: main:831: audio open error: No such file or "
	       "directory\n");
	return 1;
}

/* the value of option name (-cf FILE), or NULL */
static const char *opt(int argc, char **argv, const char *name)
{
	for (int i = 1; i + 1 < argc; i++)
		if (strcmp(argv[i], name) == 0)
			return argv[i + 1];
	return NULL;
}

/* steghide embed -cf COVER -ef FILE [-sf OUT]; extract -sf STEGO [-xf
 * OUT]: the files read, the one written tried, the format refused */
static int run_steghide(int argc, char **argv)
{
	const char *cover = opt(argc, argv, "-cf");
	const char *stego = opt(argc, argv, "-sf");
	const char *embed = opt(argc, argv, "-ef");
	const char *in = cover ? cover : stego;

	if (argc < 2 || (strcmp(argv[1], "embed") != 0 &&
			 strcmp(argv[1], "extract") != 0)) {
		su_err("steghide: unknown command \"%s\".\n",
		       argc > 1 ? argv[1] : "");
		return 1;
	}
	if (!in) {
		su_err("steghide: please specify a file.\n");
		return 1;
	}
	if (su_drain_path(in) < 0 || (embed && su_drain_path(embed) < 0)) {
		su_err("steghide: could not open the file \"%s\".\n", in);
		return 1;
	}
	if (strcmp(argv[1], "embed") == 0)
		(void)su_try_write(stego ? stego : in, 0);
	su_err("steghide: the file format of the file \"%s\" is not "
	       "supported.\n",
	       in);
	return 1;
}

const struct standin standin_partc[] = {
    {"import", run_import},	{"xwd", run_xwd}, {"arecord", run_arecord},
    {"steghide", run_steghide}, {NULL, NULL},
};
