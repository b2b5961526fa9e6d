// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ec_cmd_motion.c - a convertible's motion sensors, lid angle and tablet
 * mode: EC_CMD_MOTION_SENSE_CMD (the sub-commands ectool's motionsense
 * uses), the memory map's accelerometer area, the MKBP switch (tablet
 * mode) and sensor-FIFO events.
 *
 * The state is physical: what each sensor feels (g, or degrees a second)
 * and the hinge angle. The base lies flat and still, so the base
 * accelerometer feels 1 g up and the gyroscope nothing; the lid's
 * accelerometer feels gravity turned by the hinge angle. The EC computes
 * the lid angle back from the two accelerometers' readings, as the
 * firmware's motion_lid does, and decides tablet mode from it with the
 * firmware's threshold and hysteresis. A move of the hinge is read every
 * EC_ANGLE_STEP degrees on its way, as the motion task samples a moving
 * lid, so folding to 360 degrees passes through the tablet zone.
 */
#include <errno.h>
#include <math.h>
#include <string.h>

#include "ec_internal.h"

/* CONFIG_MOTION_MIN_SENSE_WAIT_TIME: no collection interval is shorter. */
#define EC_MOTION_MIN_INTERVAL_US 3000
/* The rate the EC itself reads the lid-angle accelerometers at (mHz). */
#define EC_LID_ACCEL_ODR	10000
/* Below this a reading with the lid open is unreliable, above it one closed. */
#define EC_LID_SMALL_ANGLE	15
#define EC_TABLET_ANGLE_DEFAULT	180
#define EC_TABLET_HYS_DEFAULT	20
#define EC_KB_WAKE_ANGLE_DEFAULT 180
#define EC_ANGLE_STEP		10
#define EC_COUNTS_FULL_SCALE	32768.0
#define EC_PI			3.14159265358979323846

/* The first accelerometer at @loc, or -1. */
static int ec_motion_accel_at(const struct ec *ec, unsigned int loc)
{
	unsigned int i;

	for (i = 0; i < ec->prof.n_motion; i++)
		if (ec->prof.motion[i].type == MOTIONSENSE_TYPE_ACCEL &&
		    ec->prof.motion[i].location == loc)
			return (int)i;
	return -1;
}

/* The firmware's sensor_board_is_lid_angle_available(): a base and a lid accel. */
static bool ec_motion_has_lid_angle(const struct ec *ec)
{
	return ec_motion_accel_at(ec, MOTIONSENSE_LOC_BASE) >= 0 &&
	       ec_motion_accel_at(ec, MOTIONSENSE_LOC_LID) >= 0;
}

/*
 * What sensor @i reports: the physical value in counts of its range,
 * plus the offset, times the scale, as the driver hands it on.
 */
static void ec_motion_counts(const struct ec *ec, unsigned int i, int16_t out[3])
{
	const struct ec_motion_sensor_state *s = &ec->motion.sensor[i];
	unsigned int axis;

	for (axis = 0; axis < 3; axis++) {
		double v = s->phys[axis] * EC_COUNTS_FULL_SCALE / s->range + s->offset[axis];

		v = v * s->scale[axis] / MOTION_SENSE_DEFAULT_SCALE;
		if (v > INT16_MAX)
			v = INT16_MAX;
		if (v < INT16_MIN)
			v = INT16_MIN;
		out[axis] = (int16_t)lround(v);
	}
}

/* A sample of sensor @i into a wire entry (its packed data field). */
static void ec_motion_sample(const struct ec *ec, unsigned int i,
			     struct ec_response_motion_sensor_data *d)
{
	int16_t v[3];

	ec_motion_counts(ec, i, v);
	memcpy(d->data, v, sizeof(v));
}

/* A supported rate for @want mHz: min x 2^n up to max; 0 stays off. */
static uint32_t ec_motion_odr_round(const struct ec_motion_sensor_profile *m, uint32_t want,
				    bool up)
{
	uint32_t r = m->min_mhz;

	if (!want)
		return 0;
	while ((uint64_t)r * 2 <= m->max_mhz && (up ? r < want : (uint64_t)r * 2 <= want))
		r *= 2;
	return r;
}

/* The rate sensor @i runs at: the AP's, and never below the EC's own need. */
static uint32_t ec_motion_odr(const struct ec *ec, unsigned int i)
{
	const struct ec_motion_sensor_profile *m = &ec->prof.motion[i];
	uint32_t odr = ec->motion.sensor[i].ap_odr;

	if (ec_motion_has_lid_angle(ec) && m->type == MOTIONSENSE_TYPE_ACCEL &&
	    ((int)i == ec_motion_accel_at(ec, MOTIONSENSE_LOC_BASE) ||
	     (int)i == ec_motion_accel_at(ec, MOTIONSENSE_LOC_LID))) {
		uint32_t own = ec_motion_odr_round(m, EC_LID_ACCEL_ODR, true);

		if (own > odr)
			odr = own;
	}
	return odr;
}

static uint32_t ec_motion_time_us(const struct ec *ec)
{
	return (uint32_t)(ec->last_ns / 1000);
}

/* Append one FIFO entry, dropping the oldest when it is full. */
static void ec_motion_fifo_push(struct ec *ec, const struct ec_response_motion_sensor_data *e)
{
	struct ec_motion_state *ms = &ec->motion;

	if (ms->fifo_count == EC_MOTION_FIFO_SIZE) {
		const struct ec_response_motion_sensor_data *old = &ms->fifo[ms->fifo_head];

		if (!old->flags && old->sensor_num < ec->prof.n_motion)
			ms->sensor[old->sensor_num].lost++;
		ms->fifo_lost++;
		ms->fifo_head = (ms->fifo_head + 1) % EC_MOTION_FIFO_SIZE;
		ms->fifo_count--;
	}
	ms->fifo[(ms->fifo_head + ms->fifo_count) % EC_MOTION_FIFO_SIZE] = *e;
	ms->fifo_count++;
}

/* The FIFO's state, as FIFO_INFO and the SENSOR_FIFO event carry it. */
static size_t ec_motion_fifo_info(struct ec *ec, struct ec_response_motion_sense_fifo_info *r,
				  bool with_lost)
{
	struct ec_motion_state *ms = &ec->motion;
	unsigned int i;

	r->size = EC_MOTION_FIFO_SIZE;
	r->count = (uint16_t)ms->fifo_count;
	r->timestamp = ec_motion_time_us(ec);
	r->total_lost = ms->fifo_lost;
	if (!with_lost)
		return sizeof(*r);
	/* Reading the counts resets them, as motion_sense_fifo_get_info(, 1). */
	for (i = 0; i < ec->prof.n_motion; i++) {
		r->lost[i] = ms->sensor[i].lost;
		ms->sensor[i].lost = 0;
	}
	ms->fifo_lost = 0;
	return sizeof(*r) + ec->prof.n_motion * sizeof(r->lost[0]);
}

/* Tell the AP the FIFO has something, if it asked to be told. */
static void ec_motion_fifo_notify(struct ec *ec)
{
	struct ec_response_motion_sense_fifo_info info;

	if (!ec->motion.fifo_int)
		return;
	ec_motion_fifo_info(ec, &info, false);
	ec_queue_event(ec, EC_MKBP_EVENT_SENSOR_FIFO, &info, sizeof(info));
}

/* An entry with only flags and a timestamp: flush and ODR-change markers. */
static void ec_motion_fifo_marker(struct ec *ec, unsigned int i, uint8_t flags)
{
	struct ec_response_motion_sensor_data e = {
		.flags = flags | MOTIONSENSE_SENSOR_FLAG_TIMESTAMP,
		.sensor_num = (uint8_t)i,
		.timestamp = ec_motion_time_us(ec),
	};

	ec_motion_fifo_push(ec, &e);
}

/* Each sensor the AP collects: a timestamp, then its sample. */
static void ec_motion_fifo_samples(struct ec *ec)
{
	struct ec_response_motion_sensor_data e;
	bool pushed = false;
	unsigned int i;

	for (i = 0; i < ec->prof.n_motion; i++) {
		if (!ec->motion.sensor[i].ap_odr)
			continue;
		ec_motion_fifo_marker(ec, i, 0);
		memset(&e, 0, sizeof(e));
		e.sensor_num = (uint8_t)i;
		ec_motion_sample(ec, i, &e);
		ec_motion_fifo_push(ec, &e);
		pushed = true;
	}
	if (pushed)
		ec_motion_fifo_notify(ec);
}

/*
 * One reading of the accelerometers (motion_lid_calc()): the angle from
 * the lid's reading to the base's around the hinge (the X axis), then the
 * firmware's lid-switch checks, then tablet mode with its hysteresis.
 * @events: raise the tablet-mode switch and host events (not at boot)
 */
static void ec_motion_read(struct ec *ec, bool events)
{
	struct ec_motion_state *ms = &ec->motion;
	int base = ec_motion_accel_at(ec, MOTIONSENSE_LOC_BASE);
	int lid = ec_motion_accel_at(ec, MOTIONSENSE_LOC_LID);
	int16_t b[3], l[3];
	bool reliable, tablet = ms->tablet;
	double deg;
	int angle;

	ms->sample_id++;
	if (base < 0 || lid < 0) {
		ms->lid_angle = LID_ANGLE_UNRELIABLE;
		return;
	}
	ec_motion_counts(ec, (unsigned int)base, b);
	ec_motion_counts(ec, (unsigned int)lid, l);
	deg = (atan2(l[1], -(double)l[2]) - atan2(b[1], b[2])) * 180.0 / EC_PI;
	angle = (int)lround(fmod(deg + 720.0, 360.0)) % 360;
	reliable = ec_lid_reported(ec) ? angle > EC_LID_SMALL_ANGLE : angle <= EC_LID_SMALL_ANGLE;
	ms->lid_angle = reliable ? (uint16_t)angle : LID_ANGLE_UNRELIABLE;
	if (!reliable)
		return;
	if (angle > ms->tablet_angle + ms->tablet_hys)
		tablet = true;
	else if (angle < ms->tablet_angle - ms->tablet_hys)
		tablet = false;
	if (tablet == ms->tablet)
		return;
	ms->tablet = tablet;
	if (!events)
		return;
	ec_console_log(ec, "tablet mode %s", tablet ? "on" : "off");
	{
		uint8_t payload[4];

		ec_put_le32(payload, ec_mkbp_switches(ec));
		ec_queue_event(ec, EC_MKBP_EVENT_SWITCH, payload, sizeof(payload));
	}
	ec_raise_host_event(ec, EC_HOST_EVENT_MODE_CHANGE);
}

/* What the sensors feel with the hinge at @angle degrees. */
static void ec_motion_feel(struct ec *ec, uint32_t angle)
{
	double rad = angle * EC_PI / 180.0;
	unsigned int i;

	for (i = 0; i < ec->prof.n_motion; i++) {
		double *v = ec->motion.sensor[i].phys;

		v[0] = 0.0;
		v[1] = 0.0;
		v[2] = 0.0;
		if (ec->prof.motion[i].type != MOTIONSENSE_TYPE_ACCEL)
			continue;
		if (ec->prof.motion[i].location == MOTIONSENSE_LOC_LID) {
			v[1] = sin(rad);
			v[2] = -cos(rad);
		} else {
			v[2] = 1.0;
		}
	}
	ec->motion.angle = angle;
}

/* Move the hinge to @target, read on the way every EC_ANGLE_STEP degrees. */
static void ec_motion_move(struct ec *ec, uint32_t target)
{
	uint32_t a = ec->motion.angle;

	while (a != target) {
		if (a < target)
			a = target - a > EC_ANGLE_STEP ? a + EC_ANGLE_STEP : target;
		else
			a = a - target > EC_ANGLE_STEP ? a - EC_ANGLE_STEP : target;
		ec_motion_feel(ec, a);
		ec_motion_read(ec, true);
	}
	ec_motion_fifo_samples(ec);
}

/* Physical: the hinge where the profile puts it (kept over EC resets). */
static int ec_motion_create(struct ec *ec)
{
	ec->motion.open_angle = ec->prof.lid_angle;
	ec_motion_feel(ec, ec->prof.lid_open ? ec->prof.lid_angle : 0);
	return 0;
}

/* The EC's RAM at every boot: host settings back to defaults, FIFO empty. */
static void ec_motion_boot(struct ec *ec)
{
	struct ec_motion_state *ms = &ec->motion;
	unsigned int i, axis;

	for (i = 0; i < EC_MOTION_SENSORS_MAX; i++) {
		struct ec_motion_sensor_state *s = &ms->sensor[i];

		s->range = i < ec->prof.n_motion ? ec->prof.motion[i].range : 1;
		s->ap_odr = 0;
		s->ec_rate_us = 0;
		for (axis = 0; axis < 3; axis++) {
			s->offset[axis] = 0;
			s->scale[axis] = MOTION_SENSE_DEFAULT_SCALE;
		}
		s->calib_temp = (int16_t)EC_MOTION_SENSE_INVALID_CALIB_TEMP;
		s->lost = 0;
	}
	ms->tablet = false;
	ms->tablet_angle = EC_TABLET_ANGLE_DEFAULT;
	ms->tablet_hys = EC_TABLET_HYS_DEFAULT;
	ms->kb_wake_angle = EC_KB_WAKE_ANGLE_DEFAULT;
	ms->fifo_head = 0;
	ms->fifo_count = 0;
	ms->fifo_lost = 0;
	ms->fifo_int = false;
	ms->sample_id = 0;
	ec_motion_read(ec, false);
}

/* The lid switch moves the hinge: closed is 0 degrees, open where it was. */
static void ec_motion_stimulus(struct ec *ec, enum ec_stimulus stim)
{
	if (!ec->prof.n_motion)
		return;
	if (stim == EC_STIM_LID_CLOSE) {
		if (ec->motion.angle > EC_LID_SMALL_ANGLE)
			ec->motion.open_angle = ec->motion.angle;
		ec_motion_move(ec, 0);
	} else if (stim == EC_STIM_LID_OPEN) {
		ec_motion_move(ec, ec->motion.open_angle);
	}
}

/* The memory map's ACC area: status, lid angle, two sensors, a gyroscope. */
static void ec_motion_memmap(struct ec *ec, uint8_t *m)
{
	const struct ec_motion_state *ms = &ec->motion;
	int16_t v[3];
	unsigned int i, axis;
	int gyro = -1;

	if (!ec->prof.n_motion)
		return;
	m[EC_MEMMAP_ACC_STATUS] = EC_MEMMAP_ACC_STATUS_PRESENCE_BIT |
				  (ms->sample_id & EC_MEMMAP_ACC_STATUS_SAMPLE_ID_MASK);
	m[EC_MEMMAP_ACC_DATA] = (uint8_t)ms->lid_angle;
	m[EC_MEMMAP_ACC_DATA + 1] = (uint8_t)(ms->lid_angle >> 8);
	/* The first two sensors after the angle, then the first gyroscope. */
	for (i = 0; i < ec->prof.n_motion; i++) {
		size_t at;

		if (i >= 2 && (gyro >= 0 || ec->prof.motion[i].type != MOTIONSENSE_TYPE_GYRO))
			continue;
		if (i >= 2)
			gyro = (int)i;
		at = i < 2 ? EC_MEMMAP_ACC_DATA + 2 + 6 * i : EC_MEMMAP_GYRO_DATA;
		ec_motion_counts(ec, i, v);
		for (axis = 0; axis < 3; axis++) {
			m[at + 2 * axis] = (uint8_t)v[axis];
			m[at + 2 * axis + 1] = (uint8_t)((uint16_t)v[axis] >> 8);
		}
	}
}

/* ---- EC_CMD_MOTION_SENSE_CMD, one function a sub-command ---- */

static int ec_ms_ret(struct ec_cmd_args *args, int32_t v)
{
	memcpy(args->resp, &v, sizeof(v));
	args->resp_size = sizeof(v);
	return EC_RES_SUCCESS;
}

/* The sensor a request names, or -1 (INVALID_PARAM, as the firmware). */
static int ec_ms_sensor(const struct ec_cmd_args *args)
{
	uint8_t n = args->req[1];

	return n < args->ec->prof.n_motion ? n : -1;
}

/** DUMP: module flags, the sensor count, up to max_sensor_count samples. */
static int ec_ms_dump(struct ec_cmd_args *args)
{
	struct ec_response_motion_sense_dump *r = (void *)args->resp;
	struct ec *ec = args->ec;
	unsigned int i, n = ec->prof.n_motion;

	if (args->req[1] < n)
		n = args->req[1];
	if (sizeof(*r) + n * sizeof(r->sensor[0]) > args->resp_max)
		return EC_RES_RESPONSE_TOO_BIG;
	r->module_flags = MOTIONSENSE_MODULE_FLAG_ACTIVE;
	r->sensor_count = (uint8_t)ec->prof.n_motion;
	for (i = 0; i < n; i++) {
		r->sensor[i].flags = MOTIONSENSE_SENSOR_FLAG_PRESENT;
		r->sensor[i].sensor_num = (uint8_t)i;
		ec_motion_sample(ec, i, &r->sensor[i]);
	}
	args->resp_size = sizeof(*r) + n * sizeof(r->sensor[0]);
	return EC_RES_SUCCESS;
}

/**
 * INFO: type, location, chip (v1, v2: 3 bytes); v3 adds the rates and the
 * FIFO size in its padded layout (16 bytes); v4 answers 19 bytes, the size
 * of the header's packed info_4, but the firmware fills them as v3 and
 * ORs its flags (none here) into bytes 15..18, so the rates stay where v3
 * has them, which is where ectool reads them.
 */
static int ec_ms_info(struct ec_cmd_args *args)
{
	struct ec_response_motion_sense_info_3 *r = (void *)args->resp;
	const struct ec_motion_sensor_profile *m;
	int i = ec_ms_sensor(args);

	if (i < 0)
		return EC_RES_INVALID_PARAM;
	m = &args->ec->prof.motion[i];
	memset(args->resp, 0, sizeof(struct ec_response_motion_sense_info_4));
	r->type = m->type;
	r->location = m->location;
	r->chip = (uint8_t)m->chip;
	if (args->version < 3) {
		args->resp_size = sizeof(struct ec_response_motion_sense_info);
		return EC_RES_SUCCESS;
	}
	r->min_frequency = m->min_mhz;
	r->max_frequency = m->max_mhz;
	r->fifo_max_event_count = EC_MOTION_FIFO_SIZE;
	args->resp_size = args->version >= 4 ? sizeof(struct ec_response_motion_sense_info_4) :
					       sizeof(*r);
	return EC_RES_SUCCESS;
}

/** EC_RATE: the AP's collection interval in ms; at least 3 ms, <= 0 the EC's own. */
static int ec_ms_ec_rate(struct ec_cmd_args *args)
{
	const struct ec_params_motion_sense_rate *p = (const void *)args->req;
	struct ec_motion_sensor_state *s;
	int i = ec_ms_sensor(args);

	if (i < 0)
		return EC_RES_INVALID_PARAM;
	s = &args->ec->motion.sensor[i];
	if (p->data != EC_MOTION_SENSE_NO_VALUE) {
		int64_t us = (int64_t)p->data * 1000;

		s->ec_rate_us = us <= 0 ? 0 : us < EC_MOTION_MIN_INTERVAL_US ?
			EC_MOTION_MIN_INTERVAL_US : us > UINT32_MAX ? UINT32_MAX : (uint32_t)us;
	}
	return ec_ms_ret(args, (int32_t)(s->ec_rate_us / 1000));
}

/**
 * SENSOR_ODR: the AP's rate in mHz, rounded to one the chip has (up when
 * roundup); answers the rate the sensor runs at. An ODR-change marker goes
 * into the FIFO. A negative rate other than NO_VALUE is INVALID_PARAM.
 */
static int ec_ms_odr(struct ec_cmd_args *args)
{
	const struct ec_params_motion_sense_rate *p = (const void *)args->req;
	struct ec *ec = args->ec;
	int i = ec_ms_sensor(args);

	if (i < 0)
		return EC_RES_INVALID_PARAM;
	if (p->data != EC_MOTION_SENSE_NO_VALUE) {
		if (p->data < 0)
			return EC_RES_INVALID_PARAM;
		ec->motion.sensor[i].ap_odr = ec_motion_odr_round(&ec->prof.motion[i],
								  (uint32_t)p->data, p->roundup);
		ec_motion_fifo_marker(ec, (unsigned int)i, MOTIONSENSE_SENSOR_FLAG_ODR);
		ec_motion_fifo_notify(ec);
	}
	return ec_ms_ret(args, (int32_t)ec_motion_odr(ec, (unsigned int)i));
}

/** SENSOR_RANGE: the full scale (g or deg/s), rounded to one the chip has. */
static int ec_ms_range(struct ec_cmd_args *args)
{
	const struct ec_params_motion_sense_rate *p = (const void *)args->req;
	struct ec *ec = args->ec;
	int i = ec_ms_sensor(args);

	if (i < 0)
		return EC_RES_INVALID_PARAM;
	if (p->data != EC_MOTION_SENSE_NO_VALUE)
		ec->motion.sensor[i].range = ec_motion_range_round(
			ec->prof.motion[i].type, p->data < 0 ? 0 : (uint32_t)p->data, p->roundup);
	return ec_ms_ret(args, (int32_t)ec->motion.sensor[i].range);
}

/** SENSOR_OFFSET / SENSOR_SCALE: set (flag MOTION_SENSE_SET_OFFSET) and read. */
static int ec_ms_calib(struct ec_cmd_args *args)
{
	const struct ec_params_motion_sense_offset *p = (const void *)args->req;
	struct ec_response_motion_sense_calib *r = (void *)args->resp;
	bool scale = p->cmd == MOTIONSENSE_CMD_SENSOR_SCALE;
	struct ec_motion_sensor_state *s;
	int i = ec_ms_sensor(args);
	unsigned int axis;

	if (i < 0)
		return EC_RES_INVALID_PARAM;
	s = &args->ec->motion.sensor[i];
	if (p->flags & MOTION_SENSE_SET_OFFSET) {
		for (axis = 0; axis < 3; axis++) {
			if (scale)
				s->scale[axis] = (uint16_t)p->offset[axis];
			else
				s->offset[axis] = p->offset[axis];
		}
		s->calib_temp = p->temp;
	}
	r->temp = s->calib_temp;
	for (axis = 0; axis < 3; axis++)
		r->v[axis] = scale ? (int16_t)s->scale[axis] : s->offset[axis];
	args->resp_size = sizeof(*r);
	return EC_RES_SUCCESS;
}

/** KB_WAKE_ANGLE: the lid angle keys wake the AP below, clamped to 0..360. */
static int ec_ms_kb_wake(struct ec_cmd_args *args)
{
	const struct ec_params_motion_sense_angle *p = (const void *)args->req;
	struct ec_motion_state *ms = &args->ec->motion;

	if (!ec_motion_has_lid_angle(args->ec))
		return EC_RES_INVALID_PARAM;
	if (p->data != EC_MOTION_SENSE_NO_VALUE)
		ms->kb_wake_angle = p->data < 0 ? 0 : p->data > 360 ? 360 : p->data;
	return ec_ms_ret(args, ms->kb_wake_angle);
}

/** DATA: one sensor's sample now (flags 0). */
static int ec_ms_data(struct ec_cmd_args *args)
{
	struct ec_response_motion_sensor_data *r = (void *)args->resp;
	int i = ec_ms_sensor(args);

	if (i < 0)
		return EC_RES_INVALID_PARAM;
	memset(r, 0, sizeof(*r));
	r->sensor_num = (uint8_t)i;
	ec_motion_sample(args->ec, (unsigned int)i, r);
	args->resp_size = sizeof(*r);
	return EC_RES_SUCCESS;
}

/** FIFO_INFO (and FIFO_FLUSH, after queueing its marker): size, count, lost. */
static int ec_ms_fifo_info(struct ec_cmd_args *args)
{
	struct ec *ec = args->ec;

	if (args->req[0] == MOTIONSENSE_CMD_FIFO_FLUSH) {
		int i = ec_ms_sensor(args);

		if (i < 0)
			return EC_RES_INVALID_PARAM;
		ec_motion_fifo_marker(ec, (unsigned int)i, MOTIONSENSE_SENSOR_FLAG_FLUSH);
		ec_motion_fifo_notify(ec);
	}
	if (sizeof(struct ec_response_motion_sense_fifo_info) +
	    ec->prof.n_motion * sizeof(uint16_t) > args->resp_max)
		return EC_RES_RESPONSE_TOO_BIG;
	args->resp_size = ec_motion_fifo_info(ec, (void *)args->resp, true);
	return EC_RES_SUCCESS;
}

/** FIFO_READ: up to max_data_vector entries, as many as the host's room takes. */
static int ec_ms_fifo_read(struct ec_cmd_args *args)
{
	const struct ec_params_motion_sense_fifo_read *p = (const void *)args->req;
	struct ec_motion_state *ms = &args->ec->motion;
	struct ec_response_motion_sensor_data *out;
	uint32_t n = 0, room;

	if (args->resp_max < sizeof(uint32_t))
		return EC_RES_RESPONSE_TOO_BIG;
	room = (uint32_t)((args->resp_max - sizeof(uint32_t)) / sizeof(*out));
	out = (void *)(args->resp + sizeof(uint32_t));
	while (n < p->max_data_vector && n < room && ms->fifo_count) {
		memcpy(&out[n++], &ms->fifo[ms->fifo_head], sizeof(*out));
		ms->fifo_head = (ms->fifo_head + 1) % EC_MOTION_FIFO_SIZE;
		ms->fifo_count--;
	}
	memcpy(args->resp, &n, sizeof(n));
	args->resp_size = sizeof(uint32_t) + n * sizeof(*out);
	return EC_RES_SUCCESS;
}

/** LID_ANGLE: the last reading, or LID_ANGLE_UNRELIABLE (500). */
static int ec_ms_lid_angle(struct ec_cmd_args *args)
{
	uint16_t v = args->ec->motion.lid_angle;

	if (!ec_motion_has_lid_angle(args->ec))
		return EC_RES_INVALID_PARAM;
	memcpy(args->resp, &v, sizeof(v));
	args->resp_size = sizeof(v);
	return EC_RES_SUCCESS;
}

/** FIFO_INT_ENABLE: 0 or 1 sets, NO_VALUE reads; anything else INVALID_PARAM. */
static int ec_ms_fifo_int(struct ec_cmd_args *args)
{
	const struct ec_params_motion_sense_fifo_int *p = (const void *)args->req;

	if (p->enable == 0 || p->enable == 1)
		args->ec->motion.fifo_int = p->enable;
	else if (p->enable != EC_MOTION_SENSE_NO_VALUE)
		return EC_RES_INVALID_PARAM;
	return ec_ms_ret(args, args->ec->motion.fifo_int);
}

/**
 * TABLET_MODE_LID_ANGLE: threshold and hysteresis; NO_VALUE in either only
 * reads. A negative value, a hysteresis above the angle or a sum above 360
 * is INVALID_PARAM. The next reading (taken at once) uses the new zone.
 */
static int ec_ms_tablet(struct ec_cmd_args *args)
{
	const struct ec_params_motion_sense_tablet *p = (const void *)args->req;
	struct ec_response_motion_sense_tablet *r = (void *)args->resp;
	struct ec_motion_state *ms = &args->ec->motion;

	if (!ec_motion_has_lid_angle(args->ec))
		return EC_RES_INVALID_PARAM;
	if (p->lid_angle != EC_MOTION_SENSE_NO_VALUE && p->hys_degree != EC_MOTION_SENSE_NO_VALUE) {
		if (p->lid_angle < 0 || p->hys_degree < 0 || p->lid_angle < p->hys_degree ||
		    p->lid_angle + p->hys_degree > 360)
			return EC_RES_INVALID_PARAM;
		ms->tablet_angle = (uint16_t)p->lid_angle;
		ms->tablet_hys = (uint16_t)p->hys_degree;
		ec_motion_read(args->ec, true);
	}
	r->lid_angle = ms->tablet_angle;
	r->hys_degree = ms->tablet_hys;
	args->resp_size = sizeof(*r);
	return EC_RES_SUCCESS;
}

/** PERFORM_CALIB: the model's drivers cannot calibrate (INVALID_COMMAND). */
static int ec_ms_calibrate(struct ec_cmd_args *args)
{
	return ec_ms_sensor(args) < 0 ? EC_RES_INVALID_PARAM : EC_RES_INVALID_COMMAND;
}

/*
 * The sub-commands, each with the request bytes it needs (the command byte
 * included); those without a handler are firmware options this board is
 * built without (activities, spoofing, online calibration): INVALID_PARAM.
 */
static const struct {
	int (*fn)(struct ec_cmd_args *args);
	uint8_t req_len;
} ec_ms_subcmds[MOTIONSENSE_NUM_CMDS] = {
	[MOTIONSENSE_CMD_DUMP] = { ec_ms_dump, 2 },
	[MOTIONSENSE_CMD_INFO] = { ec_ms_info, 2 },
	[MOTIONSENSE_CMD_EC_RATE] = { ec_ms_ec_rate, sizeof(struct ec_params_motion_sense_rate) },
	[MOTIONSENSE_CMD_SENSOR_ODR] = { ec_ms_odr, sizeof(struct ec_params_motion_sense_rate) },
	[MOTIONSENSE_CMD_SENSOR_RANGE] = { ec_ms_range,
					   sizeof(struct ec_params_motion_sense_rate) },
	[MOTIONSENSE_CMD_KB_WAKE_ANGLE] = { ec_ms_kb_wake,
					    sizeof(struct ec_params_motion_sense_angle) },
	[MOTIONSENSE_CMD_DATA] = { ec_ms_data, 2 },
	[MOTIONSENSE_CMD_FIFO_INFO] = { ec_ms_fifo_info, 1 },
	[MOTIONSENSE_CMD_FIFO_FLUSH] = { ec_ms_fifo_info, 2 },
	[MOTIONSENSE_CMD_FIFO_READ] = { ec_ms_fifo_read,
					sizeof(struct ec_params_motion_sense_fifo_read) },
	[MOTIONSENSE_CMD_PERFORM_CALIB] = { ec_ms_calibrate, 3 },
	[MOTIONSENSE_CMD_SENSOR_OFFSET] = { ec_ms_calib,
					    sizeof(struct ec_params_motion_sense_offset) },
	[MOTIONSENSE_CMD_LID_ANGLE] = { ec_ms_lid_angle, 1 },
	[MOTIONSENSE_CMD_FIFO_INT_ENABLE] = { ec_ms_fifo_int,
					      sizeof(struct ec_params_motion_sense_fifo_int) },
	[MOTIONSENSE_CMD_TABLET_MODE_LID_ANGLE] = { ec_ms_tablet,
						    sizeof(struct ec_params_motion_sense_tablet) },
	[MOTIONSENSE_CMD_SENSOR_SCALE] = { ec_ms_calib,
					   sizeof(struct ec_params_motion_sense_offset) },
};

/**
 * ec_cmd_motion_sense() - MOTION_SENSE_CMD v1..v4: the sub-command in the
 * first byte. An unknown one, one this firmware lacks, or a request
 * shorter than its parameters is INVALID_PARAM.
 */
static int ec_cmd_motion_sense(struct ec_cmd_args *args)
{
	uint8_t sub;

	if (!args->req_len)
		return EC_RES_INVALID_PARAM;
	sub = args->req[0];
	if (sub >= MOTIONSENSE_NUM_CMDS || !ec_ms_subcmds[sub].fn ||
	    args->req_len < ec_ms_subcmds[sub].req_len)
		return EC_RES_INVALID_PARAM;
	return ec_ms_subcmds[sub].fn(args);
}

int ec_motion_set_lid_angle(struct ec *ec, unsigned int degrees)
{
	int ret = 0;

	if (!ec || degrees > 360)
		return -EINVAL;
	ec_lock_advance(ec);
	if (!ec_motion_has_lid_angle(ec)) {
		ret = -ENODEV;
	} else {
		ec_motion_move(ec, degrees);
		ec_memmap_refresh(ec);
	}
	ec_unlock_notify(ec);
	return ret;
}

int ec_motion_lid_angle(struct ec *ec)
{
	int ret;

	if (!ec)
		return -EINVAL;
	ec_lock_advance(ec);
	ret = ec_motion_has_lid_angle(ec) ? ec->motion.lid_angle : -ENODEV;
	ec_unlock_notify(ec);
	return ret;
}

int ec_set_tablet_mode(struct ec *ec, bool tablet)
{
	int ret;

	if (!ec)
		return -EINVAL;
	ec_lock_advance(ec);
	ret = ec_motion_has_lid_angle(ec) ? 0 : -ENODEV;
	ec_unlock_notify(ec);
	if (ret)
		return ret;
	return ec_motion_set_lid_angle(ec, tablet ? 360 : ec->prof.lid_angle);
}

int ec_tablet_mode(struct ec *ec)
{
	int ret;

	if (!ec)
		return -EINVAL;
	ec_lock_advance(ec);
	ret = ec_motion_has_lid_angle(ec) ? ec->motion.tablet : -ENODEV;
	ec_unlock_notify(ec);
	return ret;
}

/* This subsystem's host commands, sorted by number. */
static const struct ec_cmd_entry ec_motion_cmds[] = {
	EC_HOST_COMMAND(EC_CMD_MOTION_SENSE_CMD,
			EC_VER_MASK(1) | EC_VER_MASK(2) | EC_VER_MASK(3) | EC_VER_MASK(4),
			ec_cmd_motion_sense),
};

const struct ec_subsystem ec_subsys_motion = {
	.name = "motion",
	EC_SUBSYSTEM_CMDS(ec_motion_cmds),
	.create = ec_motion_create,
	.boot = ec_motion_boot,
	.stimulus = ec_motion_stimulus,
	.memmap = ec_motion_memmap,
};
