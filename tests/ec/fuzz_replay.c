// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fuzz_replay.c - runs fuzz/ec_fuzz.c's entry point without libFuzzer:
 * every file of the checked-in corpus (tests/ec/corpus, or the directories
 * and files named on the command line), then a fixed set of pseudo-random
 * scripts, so `make check` exercises the fuzz invariants on every build.
 */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define REPLAY_MAX_INPUT (1 << 20)
#define RANDOM_INPUTS 3000

static int replay_file(const char *path, uint8_t *buf)
{
	FILE *f = fopen(path, "rb");
	size_t n;

	if (!f) {
		perror(path);
		return -1;
	}
	n = fread(buf, 1, REPLAY_MAX_INPUT, f);
	fclose(f);
	LLVMFuzzerTestOneInput(buf, n);
	return 0;
}

static int replay_dir(const char *dir, uint8_t *buf, unsigned int *count)
{
	char path[4096];
	struct dirent *de;
	DIR *d = opendir(dir);

	if (!d) {
		/* Not a directory: a single input file. */
		if (replay_file(dir, buf))
			return -1;
		++*count;
		return 0;
	}
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		if (replay_file(path, buf)) {
			closedir(d);
			return -1;
		}
		++*count;
	}
	closedir(d);
	return 0;
}

int main(int argc, char **argv)
{
	uint8_t *buf = malloc(REPLAY_MAX_INPUT);
	const char *top = getenv("top_srcdir");
	char corpus[4096];
	unsigned int files = 0, i;
	uint64_t rng = 0x243F6A8885A308D3ull;
	int a;

	if (!buf)
		return 1;
	if (argc > 1) {
		for (a = 1; a < argc; a++)
			if (replay_dir(argv[a], buf, &files))
				return 1;
	} else {
		snprintf(corpus, sizeof(corpus), "%s/tests/ec/corpus", top ? top : TOP_SRCDIR_FALLBACK);
		if (replay_dir(corpus, buf, &files) || !files) {
			fprintf(stderr, "fuzz_replay: no corpus at %s\n", corpus);
			return 1;
		}
	}
	for (i = 0; i < RANDOM_INPUTS; i++) {
		size_t len = 1 + (rng >> 40) % 400, k;

		for (k = 0; k < len; k++) {
			rng ^= rng << 13;
			rng ^= rng >> 7;
			rng ^= rng << 17;
			buf[k] = (uint8_t)(rng >> 24);
		}
		LLVMFuzzerTestOneInput(buf, len);
	}
	printf("fuzz_replay: %u corpus files and %u generated inputs passed\n", files,
	       RANDOM_INPUTS);
	free(buf);
	return 0;
}
