// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ec.c - the simulated EC's core: the dispatcher (over the commands the
 * subsystems declare, ec_subsystems.c), lifecycle, READ_MEMMAP and the version text. The physical state lives in
 * ec_state.c, the console, host events and stimuli in ec_events.c, and the
 * MKBP notifier chain in ec_notifier.c.
 *
 * Locking: one mutex per EC guards everything. Public entry points take it,
 * bring the state up to the clock's "now", do their work, refresh the memory
 * map from the state (so both views always agree) and then drop the lock
 * before the events they raised are delivered to the notifier chain.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "common/common.h"
#include "cros_ec/cros_ec_dev.h"
#include "ec_internal.h"

#define NS_PER_SEC	1000000000ull
#define NS_PER_MS	1000000ull


/**
 * ec_cmd_lookup() - the table entry serving @command on this board.
 * @ec:      the EC (its profile may disable commands)
 * @command: host command number without passthrough offset
 *
 * Return: the entry, or NULL when the board does not implement @command.
 */
const struct ec_cmd_entry *ec_cmd_lookup(const struct ec *ec, uint32_t command)
{
	if (ec_profile_cmd_disabled(&ec->prof, command))
		return NULL;
	return ec_cmd_find_kind(command, ec->prof.kind);
}

/**
 * ec_cmd_versions() - supported-versions mask of @command (0 = unsupported),
 * passthrough offsets included.
 * @ec:      the EC
 * @command: host command number
 *
 * Return: bit n set when version n is supported.
 */
uint32_t ec_cmd_versions(const struct ec *ec, uint32_t command)
{
	const struct ec_cmd_entry *entry;
	uint32_t dev = command / EC_CMD_PASSTHRU_OFFSET(1);
	uint32_t base = command % EC_CMD_PASSTHRU_OFFSET(1);

	if (command > 0xFFFF)
		return 0;
	/* A device behind the EC: what the child answers (its profile is fixed). */
	if (dev)
		return ec->passthru[dev] ? ec_cmd_versions(ec->passthru[dev], base) : 0;
	entry = ec_cmd_lookup(ec, command);
	return entry ? entry->versions : 0;
}

/*
 * Every command behind an advertised feature is in the table of the
 * board's kind of firmware: the parser checks the profile against the
 * feature list, this checks the list against the table, so GET_FEATURES
 * never names a missing command (a fingerprint MCU advertising a battery,
 * a laptop EC advertising a fingerprint sensor).
 */
static bool ec_features_in_table(const struct ec_profile *profile)
{
	unsigned int bit;
	size_t n, i;

	for (bit = 0; bit < EC_FEATURE_COUNT; bit++) {
		const uint16_t *cmds;

		if (!(profile->features[bit / 32] & (1u << (bit % 32))))
			continue;
		cmds = ec_feature_cmds(bit, &n);
		if (!cmds)
			return false;
		for (i = 0; i < n; i++)
			if (!ec_cmd_find_kind(cmds[i], profile->kind))
				return false;
	}
	return true;
}

/**
 * ec_cmd_table_versions() - supported-versions mask of @command in the static
 * table, ignoring any board profile.
 * @command: host command number
 *
 * Return: the mask, 0 when the table has no such command.
 */
uint32_t ec_cmd_table_versions(uint32_t command)
{
	const struct ec_cmd_entry *entry = ec_cmd_find(command);

	return entry ? entry->versions : 0;
}

static uint64_t ec_real_now_ns(void *ctx)
{
	return mono_now_ns();
}

static void ec_real_sleep_ns(void *ctx, uint64_t ns)
{
	mono_sleep_ns(ns);
}

uint64_t ec_now(const struct ec *ec)
{
	return ec->clock.now_ns(ec->clock.ctx);
}

/**
 * ec_uptime_ms() - milliseconds since the EC booted, as of the last advance.
 * @ec: the EC, locked
 *
 * Return: uptime in ms.
 */
uint64_t ec_uptime_ms(const struct ec *ec)
{
	return (ec->last_ns - ec->boot_ns) / NS_PER_MS;
}


/* ---- lifecycle ---- */

static size_t ec_room(uint16_t packet)
{
	size_t room = packet > EC_HOST_PACKET_HEADER_SIZE ?
		      (size_t)packet - EC_HOST_PACKET_HEADER_SIZE : 0;

	return room < 256 ? 256 : room;
}

/* Destroy the PD MCUs behind @ec (none, some or all created). */
static void ec_passthru_destroy(struct ec *ec)
{
	unsigned int dev;

	for (dev = 1; dev <= EC_PASSTHRU_DEVICES_MAX; dev++) {
		ec_destroy(ec->passthru[dev]);
		ec->passthru[dev] = NULL;
	}
}

/*
 * Create the PD MCU behind @ec for each device its profile declares: an EC
 * of kind pd reading the same clock, booted at the same instant as its
 * parent but from then on reset only by its own commands.
 */
static int ec_passthru_create(struct ec *ec)
{
	struct ec_profile *child;
	unsigned int dev;
	int ret = 0;

	child = malloc(sizeof(*child));
	if (!child)
		return -ENOMEM;
	for (dev = 1; dev <= EC_PASSTHRU_DEVICES_MAX && !ret; dev++) {
		if (!ec->prof.passthru_version[dev][0])
			continue;
		ret = ec_profile_passthru(&ec->prof, dev, child);
		if (!ret)
			ret = ec_create(child, &ec->clock, &ec->passthru[dev]);
	}
	free(child);
	return ret;
}

int ec_create(const struct ec_profile *profile, const struct ec_clock *clock, struct ec **out)
{
	struct ec *ec;
	unsigned int i;

	if (!profile || !out)
		return -EINVAL;
	if (clock && !clock->now_ns)
		return -EINVAL;
	if (profile->max_request_packet < EC_PACKET_MIN ||
	    profile->max_response_packet < EC_PACKET_MIN)
		return -EINVAL;
	if (!ec_features_in_table(profile))
		return -EINVAL;
	ec = calloc(1, sizeof(*ec));
	if (!ec)
		return -ENOMEM;
	ec->prof = *profile;
	ec->req_room = ec_room(profile->max_request_packet);
	ec->resp_room = ec_room(profile->max_response_packet);
	ec->req_buf = malloc(ec->req_room);
	ec->resp_buf = malloc(ec->resp_room);
	/* Zeroed: the state file saves it whole, past the response in it. */
	ec->saved_resp = calloc(1, ec->resp_room);
	if (!ec->req_buf || !ec->resp_buf || !ec->saved_resp)
		goto err_free;
	if (pthread_mutex_init(&ec->lock, NULL))
		goto err_free;
	if (ec_notifier_init(ec)) {
		pthread_mutex_destroy(&ec->lock);
		goto err_free;
	}

	if (clock) {
		ec->clock = *clock;
	} else {
		ec->clock.now_ns = ec_real_now_ns;
		ec->clock.sleep_ns = ec_real_sleep_ns;
	}
	ec->boot_ns = ec_now(ec);
	ec->last_ns = ec->boot_ns;
	ec->rtc_at_boot = (uint32_t)time(NULL);
	ec->latency_ns = profile->latency_ns;
	ec->rng = profile->fault_seed ? profile->fault_seed : 0x9E3779B97F4A7C15ull;

	ec->lid_open = profile->lid_open;
	ec->ac_present = profile->ac_present;
	ec->load_percent = profile->load_percent;
	ec->batt_mah = ec_batt_full(ec) * profile->batt_initial_percent / 100.0;
	ec->batt_cycles = profile->batt_cycle_count;
	ec->batt_level = 0;
	ec->batt_full_reported = profile->batt_initial_percent >= 100;
	for (i = 0; i < profile->n_temps; i++)
		ec->temp_k[i] = profile->temps[i].ambient_k;
	for (i = 0; i < profile->n_gpios; i++)
		ec->gpio_value[i] = profile->gpios[i].value;
	for (i = 0; i < profile->n_pd_ports; i++) {
		const struct ec_pd_port_profile *pp = &profile->pd_ports[i];
		struct ec_pd_port_state *ps = &ec->pd[i];

		ps->connected = pp->connected;
		ps->partner_source = pp->partner_source;
		ps->power_source = pp->connected && !pp->partner_source;
		ps->data_dfp = pp->connected && !pp->partner_source;
		ps->vconn = ps->power_source;
		ps->polarity = pp->polarity;
		ps->dp = pp->dp;
		ps->voltage_mv = pp->voltage_mv;
		ps->current_ma = pp->current_ma;
	}
	if (!ec->ac_present)
		ec_pd_follow_ac(ec);
	ec->flash_protect_flags = profile->flash_protect_flags;
	ec_wp_apply(ec, profile->write_protect);
	if (ec_subsystems_create(ec))
		goto err_sync;
	if (ec_passthru_create(ec))
		goto err_subsys;
	/* What the EC itself sets up at every boot (ec_cmd_reboot.c). */
	ec_boot(ec, EC_RESET_FLAG_POWER_ON);
	ec_memmap_refresh(ec);
	*out = ec;
	return 0;

err_subsys:
	ec_passthru_destroy(ec);
	ec_subsystems_destroy(ec);
err_sync:
	ec_notifier_fini(ec);
	pthread_mutex_destroy(&ec->lock);
err_free:
	free(ec->req_buf);
	free(ec->resp_buf);
	free(ec->saved_resp);
	free(ec);
	return -ENOMEM;
}


void ec_destroy(struct ec *ec)
{
	if (!ec)
		return;
	ec_passthru_destroy(ec);
	ec_notifier_fini(ec);
	pthread_mutex_destroy(&ec->lock);
	ec_subsystems_destroy(ec);
	free(ec->req_buf);
	free(ec->resp_buf);
	free(ec->saved_resp);
	free(ec);
}

size_t ec_memory_footprint(struct ec *ec)
{
	unsigned int dev;
	size_t bytes;

	/* The flash and fingerprint state grow under the lock's commands. */
	pthread_mutex_lock(&ec->lock);
	bytes = sizeof(*ec) + ec->req_room + 2 * ec->resp_room + ec_subsystems_footprint(ec);
	pthread_mutex_unlock(&ec->lock);
	for (dev = 1; dev <= EC_PASSTHRU_DEVICES_MAX; dev++)
		if (ec->passthru[dev])
			bytes += ec_memory_footprint(ec->passthru[dev]);
	return bytes;
}

/**
 * ec_max_request() - largest request payload.
 * @ec: the EC
 *
 * Return: protocol max request packet minus the 8-byte header.
 */
size_t ec_max_request(const struct ec *ec)
{
	return (size_t)ec->prof.max_request_packet - EC_HOST_PACKET_HEADER_SIZE;
}

/**
 * ec_max_response() - largest response payload.
 * @ec: the EC
 *
 * Return: protocol max response packet minus the 8-byte header.
 */
size_t ec_max_response(const struct ec *ec)
{
	return (size_t)ec->prof.max_response_packet - EC_HOST_PACKET_HEADER_SIZE;
}

/* ---- host commands ---- */

static uint64_t ec_rand(struct ec *ec)
{
	/* Tiny, seedable, good enough to draw fault decisions. */
	return xorshift64s_next(&ec->rng);
}

static bool ec_draw(struct ec *ec, uint32_t ppm)
{
	if (!ppm)
		return false;
	return (ec_rand(ec) >> 11) % EC_PPM < ppm;
}

static uint64_t ec_latency_for(const struct ec *ec, uint32_t command)
{
	unsigned int i;

	if (ec->latency_overridden)
		return ec->latency_ns;
	for (i = 0; i < ec->prof.n_latency_rules; i++)
		if (ec->prof.latency_rules[i].command == command)
			return ec->prof.latency_rules[i].ns;
	return ec->latency_ns;
}

static void ec_spend(struct ec *ec, uint64_t ns)
{
	if (ns && ec->clock.sleep_ns)
		ec->clock.sleep_ns(ec->clock.ctx, ns);
}

/*
 * A command on a passthrough offset: the EC relays it to the PD MCU behind
 * it, which runs it as its own host command (its version check, its
 * handlers, its state) and answers the status and bytes the EC hands back,
 * as the firmware's host_command_process() does with pd_host_command().
 * A device the profile does not declare is a command the EC lacks.
 */
static int ec_passthru(struct ec_cmd_args *args, uint32_t dev, uint32_t base)
{
	struct ec *child = args->ec->passthru[dev];
	uint32_t status;
	int ret;

	if (!child)
		return EC_RES_INVALID_COMMAND;
	ret = ec_host_command(child, base, args->version, args->req, args->req_len, args->resp,
			      args->resp_max, &status);
	if (ret < 0)
		return EC_RES_ERROR;
	args->resp_size = status == EC_RES_SUCCESS ? (size_t)ret : 0;
	return (int)status;
}

static int ec_dispatch(struct ec_cmd_args *args, uint32_t command)
{
	const struct ec_cmd_entry *entry;
	uint32_t dev;

	if (command > 0xFFFF)
		return EC_RES_INVALID_COMMAND;
	dev = command / EC_CMD_PASSTHRU_OFFSET(1);
	if (dev)
		return ec_passthru(args, dev, command % EC_CMD_PASSTHRU_OFFSET(1));
	entry = ec_cmd_lookup(args->ec, command);
	if (!entry)
		return EC_RES_INVALID_COMMAND;
	if (args->version > 31 || !(entry->versions & EC_VER_MASK(args->version)))
		return EC_RES_INVALID_VERSION;
	return entry->handler(args);
}

int ec_host_command(struct ec *ec, uint32_t command, uint32_t version,
		    const void *req, size_t req_len, void *resp, size_t resp_max,
		    uint32_t *ec_status)
{
	return ec_host_command_effects(ec, command, version, req, req_len, resp, resp_max,
				       ec_status, NULL);
}

void ec_set_fault_plan(struct ec *ec, struct ec_fault_plan *plan)
{
	pthread_mutex_lock(&ec->lock);
	ec->fault_plan = plan;
	pthread_mutex_unlock(&ec->lock);
}

/* The work is done, but the answer waits for RESEND_RESPONSE. */
static uint32_t ec_defer_answer(struct ec *ec, uint32_t status, size_t resp_size)
{
	ec->saved_valid = true;
	ec->saved_status = status;
	ec->saved_len = status == EC_RES_SUCCESS ? resp_size : 0;
	memcpy(ec->saved_resp, ec->resp_buf, ec->saved_len);
	return EC_RES_IN_PROGRESS;
}

/*
 * The count is read before and after the command in the one hold of the EC
 * lock the command runs in, so another command's reset, which can only come
 * before or after that hold, is never credited to this one.
 */
int ec_host_command_effects(struct ec *ec, uint32_t command, uint32_t version,
			    const void *req, size_t req_len, void *resp, size_t resp_max,
			    uint32_t *ec_status, struct ec_cmd_effects *effects)
{
	enum ec_fault_kind fault = EC_FAULT_NONE, happens;
	struct ec_cmd_args args;
	uint32_t status, resets_before;
	uint64_t fault_arg = 0;
	bool fault_ok;
	int ret = 0;

	if (effects)
		*effects = (struct ec_cmd_effects){ .fault = EC_FAULT_NONE };
	if (ec_status)
		*ec_status = EC_RES_ERROR;
	if (!ec || !ec_status || (!req && req_len) || (!resp && resp_max))
		return -EINVAL;
	if (req_len > ec_max_request(ec))
		return -EMSGSIZE;

	pthread_mutex_lock(&ec->lock);
	/*
	 * A recorded answer beats the model and its faults: the replay is the
	 * device as it was, and the model's state is not touched for it.
	 */
	if (ec->replay && ec_replay_xcmd(ec->replay, command, version, req, req_len, resp,
					 resp_max, &status, &ret)) {
		*ec_status = status;
		pthread_mutex_unlock(&ec->lock);
		return ret;
	}
	resets_before = ec->sys.cold_resets;
	ec_spend(ec, ec_latency_for(ec, command));
	ec_advance(ec);
	ec_memmap_refresh(ec);

	memset(ec->req_buf, 0, ec->req_room);
	if (req_len)
		memcpy(ec->req_buf, req, req_len);
	memset(ec->resp_buf, 0, ec->resp_room);
	args = (struct ec_cmd_args){
		.ec = ec,
		.version = version,
		.req = ec->req_buf,
		.req_len = req_len,
		.resp = ec->resp_buf,
		.resp_max = resp_max < ec->resp_room ? resp_max : ec->resp_room,
	};

	/*
	 * The caller's plan first: a scripted fault beats a random one. The
	 * profile's random BUSY and timeout then take the same paths as the
	 * plan's kinds, but are no fault of the plan (effects report the
	 * plan's only). The recovery commands stay reliable so a client can
	 * always recover.
	 */
	if (ec->fault_plan)
		fault = ec_fault_plan_draw(ec->fault_plan, command, &fault_arg);
	fault_ok = fault == EC_FAULT_NONE && command != EC_CMD_RESEND_RESPONSE &&
		   command != EC_CMD_GET_COMMS_STATUS;
	happens = fault;
	if (fault_ok && ec_draw(ec, ec->prof.fault_busy_ppm)) {
		happens = EC_FAULT_RESULT;
		fault_arg = EC_RES_BUSY;
	} else if (fault_ok && ec_draw(ec, ec->prof.fault_timeout_ppm)) {
		happens = EC_FAULT_TIMEOUT;
	}
	switch (happens) {
	case EC_FAULT_RESULT:
		status = (uint32_t)fault_arg;
		goto out;
	case EC_FAULT_EIO:
		status = EC_RES_ERROR;
		ret = -EIO;
		goto out;
	case EC_FAULT_TIMEOUT:
		ec_spend(ec, ec->prof.fault_timeout_ns);
		status = EC_RES_TIMEOUT;
		ret = -ETIMEDOUT;
		goto out;
	case EC_FAULT_DELAY:
		ec_spend(ec, fault_arg);
		break;
	default:
		break;
	}

	ec_subsystems_host_command(ec);
	status = (uint32_t)ec_dispatch(&args, command);
	if (status == EC_RES_SUCCESS && args.resp_size > args.resp_max)
		status = EC_RES_RESPONSE_TOO_BIG;

	if (fault == EC_FAULT_IN_PROGRESS ||
	    (fault_ok && ec_draw(ec, ec->prof.fault_in_progress_ppm)))
		status = ec_defer_answer(ec, status, args.resp_size);
	if (fault == EC_FAULT_SHORT && args.resp_size > fault_arg)
		args.resp_size = (size_t)fault_arg;
	if (fault == EC_FAULT_OVERSIZE) {
		/* The EC sent more than asked; the host's transport drops it. */
		ret = -EMSGSIZE;
		goto out;
	}
	if (status == EC_RES_SUCCESS) {
		if (args.resp_size)
			memcpy(resp, ec->resp_buf, args.resp_size);
		ret = (int)args.resp_size;
	}
out:
	ec_memmap_refresh(ec);
	*ec_status = status;
	if (effects) {
		effects->fault = fault;
		if (ec->sys.cold_resets != resets_before)
			effects->cold_resets = ec->sys.cold_resets;
	}
	ec_unlock_notify(ec);
	return ret;
}

bool ec_memmap_direct(const struct ec *ec)
{
	/* Atomic: the replay is set under the lock, this reads without it. */
	return ec && (ec->prof.memmap_direct || __atomic_load_n(&ec->replay, __ATOMIC_ACQUIRE));
}

int ec_read_memmap(struct ec *ec, uint32_t offset, uint32_t bytes, void *buf)
{
	uint8_t *out = buf;
	int count = 0;

	if (!ec || !buf)
		return -EINVAL;
	if (offset >= EC_MEMMAP_SIZE || bytes > 255 || bytes > EC_MEMMAP_SIZE - offset)
		return -EINVAL;
	pthread_mutex_lock(&ec->lock);
	if (ec->replay && ec_replay_readmem(ec->replay, offset, bytes, buf, &count)) {
		pthread_mutex_unlock(&ec->lock);
		return count;
	}
	pthread_mutex_unlock(&ec->lock);
	if (!ec->prof.memmap_direct)
		return -ENOTTY;

	ec_lock_advance(ec);
	if (bytes) {
		memcpy(out, &ec->memmap[offset], bytes);
		count = (int)bytes;
	} else {
		/* A string: up to and including its NUL, within map and buffer. */
		while (offset < EC_MEMMAP_SIZE && count < 255) {
			out[count] = ec->memmap[offset++];
			if (!out[count++])
				break;
		}
	}
	ec_unlock_notify(ec);
	return count;
}

static const char *ec_image_name(uint32_t image)
{
	static const char *const names[] = { "unknown", "read-only", "read-write" };

	return image < 3 ? names[image] : "invalid";
}

int ec_get_version_text(struct ec *ec, char *buf, size_t len)
{
	int n;

	if (!ec || !buf || !len)
		return -EINVAL;
	pthread_mutex_lock(&ec->lock);
	n = snprintf(buf, len, "%s\n%s\n%s\n%s\n", CROS_EC_DEV_VERSION, ec->prof.version_ro,
		     ec->prof.version_rw, ec_image_name(ec->prof.current_image));
	pthread_mutex_unlock(&ec->lock);
	if (n < 0)
		return -EINVAL;
	return (size_t)n >= len ? (int)len - 1 : n;
}
