// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cuse_ec_record.c - cuse_ec-record: ask any cros_ec device (a real
 * Chromebook's /dev/cros_ec, or cuse_ec's) a fixed list of questions that
 * change nothing, and write what it answered as a recording (an overlay
 * cuse_ec --replay serves over a profile) and, optionally, a profile of
 * what the answers tell (identity, chip, packet sizes, flash geometry).
 *
 * The questions go through the client library's own helpers, so their
 * request bytes are the ones ecctl sends and a replay matches them. The
 * device is reached through a transport of our own that records every
 * XCMD and READMEM on its way (ec_client_attach()).
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "client/ec_client.h"
#include "common/common.h"
#include "cros_ec/cros_ec_dev.h"
#include "cros_ec/ec_commands.h"
#include "ec/ec.h"

/* The recording transport: the device's fd and where its calls go. */
struct rec_transport {
	int fd;
	FILE *out;
	enum ec_rec_format format;
	uint64_t t0;
	unsigned int written;
	int write_err;
};

static void rec_put(struct rec_transport *t, struct ec_rec *r)
{
	int ret;

	r->t_ns = mono_now_ns() - t->t0;
	ret = ec_rec_write(t->format, r, t->out);
	if (ret > 0)
		t->written++;
	else if (ret < 0 && !t->write_err)
		t->write_err = ret;
}

static int rec_ioctl(void *ctx, unsigned long request, unsigned long arg)
{
	struct rec_transport *t = ctx;
	struct cros_ec_command_v2 *cmd = (struct cros_ec_command_v2 *)arg;
	struct cros_ec_readmem_v2 *mem = (struct cros_ec_readmem_v2 *)arg;
	uint8_t req[EC_REC_DATA_MAX];
	uint32_t out_size = 0;
	int ret;

	/* The answer overwrites the request: keep it for the record. */
	if (request == CROS_EC_DEV_IOCXCMD_V2) {
		out_size = cmd->outsize < sizeof(req) ? cmd->outsize : sizeof(req);
		memcpy(req, cmd->data, out_size);
	}
	ret = ioctl(t->fd, request, arg);
	if (ret < 0)
		ret = -errno;
	if (request == CROS_EC_DEV_IOCXCMD_V2) {
		uint32_t in = cmd->insize < EC_REC_DATA_MAX ? cmd->insize : EC_REC_DATA_MAX;

		rec_put(t, &(struct ec_rec){
			.kind = EC_REC_XCMD, .command = cmd->command, .version = cmd->version,
			.result = ret < 0 ? EC_RES_ERROR : cmd->result, .ret = ret,
			.out_size = out_size, .in_size = in, .req_known = true, .req = req,
			.data_len = ret > 0 ? ((uint32_t)ret < in ? (uint32_t)ret : in) : 0,
			.data = cmd->data });
	} else if (request == CROS_EC_DEV_IOCRDMEM_V2 && ret != -ENOTTY) {
		rec_put(t, &(struct ec_rec){
			.kind = EC_REC_READMEM, .offset = mem->offset, .in_size = mem->bytes,
			.ret = ret, .data_len = ret > 0 ? (uint32_t)ret : 0, .data = mem->buffer });
	}
	return ret;
}

static ssize_t rec_read(void *ctx, void *buf, size_t len)
{
	struct rec_transport *t = ctx;
	ssize_t n = read(t->fd, buf, len);

	return n < 0 ? -errno : n;
}

static int rec_poll(void *ctx, int timeout_ms)
{
	struct rec_transport *t = ctx;
	struct pollfd pfd = { .fd = t->fd, .events = POLLIN };
	int n = poll(&pfd, 1, timeout_ms);

	return n < 0 ? -errno : n ? pfd.revents : 0;
}

static const struct ec_transport_ops rec_ops = {
	.ioctl = rec_ioctl,
	.read = rec_read,
	.poll = rec_poll,
};

/* The questions' answers a profile is made of. */
struct rec_facts {
	struct ec_info_version ver;
	bool have_ver;
	struct ec_info_chip chip;
	bool have_chip;
	struct ec_info_protocol proto;
	bool have_proto;
	struct ec_response_flash_info_1 flash;
	bool have_flash;
	bool have_flash_v1;		/* @flash's write_ideal_size and flags too */
	bool memmap_direct;
};

/*
 * The fixed list: identity, protocol, features, every command's versions,
 * battery, temperatures, fans, uptime, panic record, USB-PD, flash geometry
 * and the whole memory map. Only questions; none changes the EC. Answers
 * the EC refuses are recorded as refused.
 */
static void ask_everything(struct ec_client *c, struct rec_facts *f)
{
	uint8_t buf[256], map[255];
	struct ec_info_battery bat;
	struct ec_info_temps temps;
	struct ec_info_fans fans;
	struct ec_info_uptime up;
	struct ec_info_pd_power pw;
	uint32_t hello, mask, flash_mask = 0, result;
	unsigned int ports = 0, port, cmd;
	int n;

	f->memmap_direct = ec_client_has_direct_memmap(c);
	ec_client_hello(c, 0xa0b0c0d0u, &hello);
	f->have_ver = !ec_client_get_version(c, &f->ver);
	f->have_chip = !ec_client_chipinfo(c, &f->chip);
	f->have_proto = !ec_client_protoinfo(c, &f->proto);
	ec_client_xcmd(c, EC_CMD_GET_FEATURES, 0, NULL, 0, buf, 8, &result);
	ec_client_xcmd(c, EC_CMD_GET_BOARD_VERSION, 0, NULL, 0, buf, 2, &result);
	/*
	 * ectool asks v1 for every command (v0 where v1 fails), ecctl v0 up
	 * to 0xff: both ways, so an overlay answers either client.
	 */
	for (cmd = 0; cmd <= 0x3ff; cmd++) {
		if (!ec_client_cmd_versions_ver(c, (uint16_t)cmd, 1, &mask) &&
		    cmd == EC_CMD_FLASH_INFO)
			flash_mask = mask;
		if (cmd <= 0xff && !ec_client_cmd_versions_ver(c, (uint16_t)cmd, 0, &mask) &&
		    cmd == EC_CMD_FLASH_INFO && !flash_mask)
			flash_mask = mask;
	}
	ec_client_battery(c, &bat);
	ec_client_temps(c, &temps);
	ec_client_fans(c, &fans);
	ec_client_uptime(c, &up);
	ec_client_panicinfo(c, buf, sizeof(buf));
	if (!ec_client_usbpd_ports(c, &ports))
		for (port = 0; port < ports && port < 8; port++)
			ec_client_usbpd_power(c, (uint8_t)port, &pw);
	/* FLASH_INFO v1 (ectool's flashinfo asks it) where the EC has it, else v0. */
	if (flash_mask & EC_VER_MASK(1)) {
		n = ec_client_xcmd(c, EC_CMD_FLASH_INFO, 1, NULL, 0, &f->flash,
				   sizeof(f->flash), &result);
		f->have_flash_v1 = n == (int)sizeof(f->flash) && result == EC_RES_SUCCESS;
	}
	if (!f->have_flash_v1) {
		n = ec_client_xcmd(c, EC_CMD_FLASH_INFO, 0, NULL, 0, &f->flash,
				   sizeof(struct ec_response_flash_info), &result);
		f->have_flash = n == (int)sizeof(struct ec_response_flash_info) &&
				result == EC_RES_SUCCESS;
	}
	f->have_flash |= f->have_flash_v1;
	if (f->memmap_direct)
		ec_client_readmem(c, 0, sizeof(map), map);
}

/* A string fit for a profile's value: printable, no comment sign. */
static void profile_str(FILE *out, const char *key, const char *val)
{
	const char *p;

	if (!val[0])
		return;
	fprintf(out, "%s = ", key);
	for (p = val; *p; p++)
		putc(*p >= 0x20 && *p < 0x7f && *p != '#' ? *p : '_', out);
	putc('\n', out);
}

static int write_profile(const char *path, const char *dev, const struct rec_facts *f)
{
	static const char *const images[] = { "unknown", "ro", "rw", "ro_b", "rw_b" };
	char board[EC_INFO_STR] = "recorded", *cut;
	FILE *out = fopen(path, "w");

	if (!out)
		return -errno;
	if (f->have_ver && f->ver.ro[0]) {
		/* ChromiumOS versions read BOARD_vX.Y...: the board comes first. */
		snprintf(board, sizeof(board), "%s", f->ver.ro);
		cut = strstr(board, "_v");
		if (cut && cut != board)
			*cut = '\0';
	}
	fprintf(out, "# Recorded by cuse_ec-record from %s.\n\n[ec]\n", dev);
	profile_str(out, "board", board);
	if (f->have_ver) {
		profile_str(out, "version_ro", f->ver.ro);
		profile_str(out, "version_rw", f->ver.rw);
		profile_str(out, "fwid_ro", f->ver.fwid_ro);
		profile_str(out, "fwid_rw", f->ver.fwid_rw);
		if (f->ver.current_image < sizeof(images) / sizeof(images[0]))
			fprintf(out, "current_image = %s\n", images[f->ver.current_image]);
		profile_str(out, "build_info", f->ver.build_info);
	}
	fprintf(out, "memmap_direct = %s\n", f->memmap_direct ? "yes" : "no");
	if (f->have_chip) {
		fprintf(out, "\n[chip]\n");
		profile_str(out, "vendor", f->chip.vendor);
		profile_str(out, "name", f->chip.name);
		profile_str(out, "revision", f->chip.revision);
	}
	if (f->have_proto)
		fprintf(out, "\n[protocol]\nmax_request_packet = %u\nmax_response_packet = %u\n",
			f->proto.max_request_packet, f->proto.max_response_packet);
	if (f->have_flash && f->flash.flash_size)
		fprintf(out, "\n[flash]\nsize = %" PRIu32 "\nwrite_block = %" PRIu32
			"\nerase_block = %" PRIu32 "\nprotect_block = %" PRIu32 "\n",
			f->flash.flash_size, f->flash.write_block_size, f->flash.erase_block_size,
			f->flash.protect_block_size);
	/* The flags a profile carries (0..3): ERASE_TO_0 and SELECT_REQUIRED. */
	if (f->have_flash && f->flash.flash_size && f->have_flash_v1)
		fprintf(out, "write_ideal = %" PRIu32 "\nflags = %" PRIu32 "\n",
			f->flash.write_ideal_size,
			f->flash.flags & (EC_FLASH_INFO_ERASE_TO_0 | EC_FLASH_INFO_SELECT_REQUIRED));
	return fclose(out) == EOF ? -EIO : 0;
}

static void usage(FILE *out)
{
	fputs("Usage: cuse_ec-record [--dev=PATH] --overlay=FILE [--profile-out=FILE]\n"
	      "Ask a cros_ec device a fixed list of read-only questions and record its\n"
	      "answers, for cuse_ec --profile=P --replay=FILE --replay-miss=model.\n"
	      "\n"
	      "  --dev=PATH          the device (default /dev/cros_ec)\n"
	      "  --overlay=FILE      the recording to write (umockdev's format for a\n"
	      "                      name ending in .ioctl, else cuse_ec-recording 1)\n"
	      "  --profile-out=FILE  also write a profile of what the answers tell\n"
	      "  -h, --help          this text\n"
	      "  -V, --version       version\n"
	      "\n"
	      "Exit status: 0 success, 1 device or file error, 2 usage error.\n", out);
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "dev", required_argument, NULL, 'd' },
		{ "overlay", required_argument, NULL, 'o' },
		{ "profile-out", required_argument, NULL, 'p' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	const char *dev = "/dev/cros_ec", *overlay = NULL, *profile = NULL;
	struct rec_transport t = { .fd = -1 };
	struct ec_client_error error;
	struct rec_facts facts = { 0 };
	struct ec_client *c;
	char why[PARSE_ERR_MAX];
	int opt, ret, status = 1;

	opterr = 0;
	while ((opt = getopt_long(argc, argv, "hV", longopts, NULL)) != -1) {
		switch (opt) {
		case 'd':
			dev = optarg;
			break;
		case 'o':
			overlay = optarg;
			break;
		case 'p':
			profile = optarg;
			break;
		case 'h':
			usage(stdout);
			return 0;
		case 'V':
			printf("cuse_ec-record (%s) %s\n", PACKAGE_NAME, PACKAGE_VERSION);
			return 0;
		default:
			cli_option_error(opt, argv, why, sizeof(why));
			fprintf(stderr, "cuse_ec-record: %s\n", why);
			return 2;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "cuse_ec-record: unexpected argument '%s'\n", argv[optind]);
		return 2;
	}
	if (!overlay || !overlay[0] || !dev[0] || (profile && !profile[0])) {
		fprintf(stderr, "cuse_ec-record: --overlay=FILE is required (and no option "
			"may be empty)\n");
		return 2;
	}

	t.fd = open(dev, O_RDWR | O_CLOEXEC);
	if (t.fd < 0) {
		fprintf(stderr, "cuse_ec-record: %s: %s\n", dev, strerror(errno));
		return 1;
	}
	t.format = ec_rec_format_for_path(overlay);
	t.out = fopen(overlay, "w");
	if (!t.out) {
		fprintf(stderr, "cuse_ec-record: %s: %s\n", overlay, strerror(errno));
		close(t.fd);
		return 1;
	}
	t.t0 = mono_now_ns();
	ret = ec_recording_write_header(t.format, dev[0] == '/' && !strpbrk(dev, " \t") ?
					dev : NULL, t.out);
	if (ret)
		t.write_err = ret;
	ret = ec_client_attach(&rec_ops, &t, 0, &error, &c);
	if (ret) {
		fprintf(stderr, "cuse_ec-record: %s: %s\n", dev, error.message);
		goto out;
	}
	ask_everything(c, &facts);
	ec_client_close(c);
	if (fflush(t.out) == EOF && !t.write_err)
		t.write_err = -EIO;
	if (t.write_err) {
		fprintf(stderr, "cuse_ec-record: %s: %s\n", overlay, strerror(-t.write_err));
		goto out;
	}
	if (profile) {
		ret = write_profile(profile, dev, &facts);
		if (ret) {
			fprintf(stderr, "cuse_ec-record: %s: %s\n", profile, strerror(-ret));
			goto out;
		}
	}
	printf("cuse_ec-record: %u answers of %s recorded in %s%s%s\n", t.written, dev, overlay,
	       profile ? ", profile in " : "", profile ? profile : "");
	status = 0;
out:
	if (fclose(t.out) == EOF && !status) {
		fprintf(stderr, "cuse_ec-record: %s: %s\n", overlay, strerror(errno));
		status = 1;
	}
	close(t.fd);
	return status;
}
