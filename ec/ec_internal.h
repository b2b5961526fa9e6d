/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ec_internal.h - the EC model's private structures, shared by the core
 * (ec.c, ec_state.c, ec_events.c) and the per-area command handlers
 * (ec_cmd_*.c). The board profile and its limits live in ec_profile.h,
 * which the profile parser includes without this header.
 *
 * Everything is fixed-size so that a profile can be copied with one
 * assignment and one EC costs a predictable, small amount of memory.
 */
#ifndef EC_EC_INTERNAL_H
#define EC_EC_INTERNAL_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ec_testing.h"
#include "cros_ec/ec_commands.h"
#include "ec.h"

#include "ec_profile.h"

/* Events raised under the lock wait here for delivery to the chain. */
#define EC_OUTBOX_LEN		64

struct ec_pd_port_state {
	bool connected;
	bool partner_source;
	bool power_source;		/* we supply VBUS */
	bool data_dfp;
	bool vconn;
	bool polarity;
	bool dp;
	bool frozen;
	uint8_t mux_mode;		/* enum usb_pd_control_mux; NO_CHANGE = auto */
	uint32_t voltage_mv;
	uint32_t current_ma;
};

/**
 * struct ec_host_event_state - host event copy B, the masks the host sets
 * and the sleep state it reports (ec_cmd_hostevent.c).
 * @events_b:          copy B: raised with the main copy, cleared separately
 * @mask:              indexed by enum ec_host_event_mask_type (SCI and up)
 * @sleep_event:       last HOST_SLEEP_EVENT, 0 = none since boot
 * @sleep_timeout_ms:  timeout the host gave with its last suspend
 * @sleep_transitions: transitions counted while suspended
 */
struct ec_host_event_state {
	uint64_t events_b;
	uint64_t mask[EC_HOST_EVENT_MASK_TYPE_COUNT];
	uint8_t sleep_event;
	uint16_t sleep_timeout_ms;
	uint32_t sleep_transitions;
};

/**
 * struct ec_flash_state - the simulated flash and its background jobs
 * (ec_cmd_flashrw.c). The flash is kept per erase block and only blocks a
 * host has written cost memory: a pristine block reads as the generated
 * factory image, an erased one as erased bytes.
 * @n_blocks:     flash_size / erase_block; 0 when the profile has no flash
 * @block:        a written block's bytes, or NULL
 * @block_state:  enum ec_flash_block_state per block
 * @erase_busy:   an async erase runs until @erase_done_ns on the EC clock
 * @erase_result: EC_RES_* of the last async erase, reported once
 * @hash_status:  enum ec_vboot_hash_status
 * @hash_done_ns: a started hash is BUSY until then
 * @digest:       SHA-256 of the nonce, then [@hash_offset, +@hash_size)
 */
struct ec_flash_state {
	uint32_t n_blocks;
	uint8_t **block;
	uint8_t *block_state;
	size_t written_blocks;
	bool erase_busy;
	uint64_t erase_done_ns;
	uint32_t erase_offset, erase_size;
	uint32_t erase_result;
	uint8_t hash_status;
	uint64_t hash_done_ns;
	uint32_t hash_offset, hash_size;
	uint8_t nonce_size;
	uint8_t nonce[64];
	uint8_t digest[32];
};

/**
 * struct ec_keyboard_state - the keyboard matrix and its host settings
 * (ec_cmd_keyboard.c).
 * @matrix:         bit r of byte c: the key at row r, column c is down
 * @config:         what MKBP_SET_CONFIG last set (valid_mask = all fields)
 * @host_wake_mask: host events that wake the AP through MKBP
 * @event_wake_mask: MKBP event types that wake the AP
 * @backlight:      keyboard backlight duty, percent
 * @backlight_duty: ... and in PWM_SET_DUTY's 16 bits, as last set
 */
struct ec_keyboard_state {
	uint8_t matrix[EC_KB_COLS_MAX];
	struct ec_mkbp_config config;
	uint32_t host_wake_mask;
	uint32_t event_wake_mask;
	uint8_t backlight;
	uint16_t backlight_duty;	/* the same as a 16-bit PWM duty (PWM_*_DUTY) */
};

#define EC_PORT80_HISTORY	128	/* entries, as in the firmware */

/**
 * struct ec_board_state - the RTC alarm and the port-80 history
 * (ec_cmd_rtc.c, ec_cmd_port80.c).
 * @alarm_ns:   EC-clock time the RTC alarm fires, 0 = none
 * @p80:        port-80 writes, a ring of EC_PORT80_HISTORY entries
 * @p80_writes: writes ever made (the ring's head)
 * @p80_last_boot: the last POST code of the previous boot
 */
struct ec_board_state {
	uint64_t alarm_ns;
	uint16_t p80[EC_PORT80_HISTORY];
	uint32_t p80_writes;
	uint16_t p80_last_boot;
};

/**
 * struct ec_sys_state - the CBI EEPROM, the I2C buses and the EC's own
 * resets (ec_cmd_adc_cbi.c, ec_cmd_i2c.c, ec_cmd_reboot.c).
 * @cbi:            the EEPROM's bytes: a CBI image; kept over EC resets
 * @eeprom_ptr:     the EEPROM's address pointer (I2C reads go on from it)
 * @sbs_cmd:        the smart battery register the last write selected
 * @sbs_rw:         the battery's writable registers (0x00..0x04)
 * @batt_cut_off:   BATTERY_CUT_OFF: the pack is off until AC comes back
 * @i2c_protected:  I2C_PASSTHRU_PROTECT per port, cleared by a reset
 * @reset_flags:    EC_RESET_FLAG_* of the last EC reset
 * @jump_disabled:  REBOOT_EC DISABLE_JUMP until the next reset
 * @pending_reboot: a reboot waiting for the AP to shut down, 0 = none
 * @pending_flags:  its EC_REBOOT_FLAG_*
 * @cold_resets:    cold resets since ec_create() (what the daemon watches)
 * @resets:         every EC reset since ec_create()
 * @boot_image:     the image the EC runs after a reset
 * @i2c_khz:        I2C_CONTROL's speed per port, 100 kHz at every boot
 */
struct ec_sys_state {
	uint8_t cbi[CBI_IMAGE_SIZE];
	uint8_t eeprom_ptr;
	uint8_t sbs_cmd;
	uint16_t sbs_rw[5];
	bool batt_cut_off;
	bool i2c_protected[EC_I2C_PORTS_MAX];
	uint32_t reset_flags;
	bool jump_disabled;
	uint8_t pending_reboot;
	uint8_t pending_flags;
	uint32_t cold_resets;
	uint32_t resets;
	uint32_t boot_image;
	uint16_t i2c_khz[EC_I2C_PORTS_MAX];
};

/**
 * struct ec_ctl_state - what the host set on the power side and switches
 * (ec_cmd_settings.c); RAM of the EC, set up again at every boot.
 * @temps_boot:         the profile's sensors, restored at an EC reset
 * @charge_limit_ma:    CHARGE_CURRENT_LIMIT, UINT32_MAX = none
 * @ext_current_ma:     EXTERNAL_POWER_LIMIT, EC_POWER_LIMIT_NONE = none
 * @ext_voltage_mv:     likewise
 * @hibernate_delay_s:  HIBERNATION_DELAY
 * @wireless_now:       EC_WIRELESS_SWITCH_* on now
 * @wireless_suspend:   ... and left on in suspend
 * @force_lid_open:     FORCE_LID_OPEN
 * @hang_flags:         HANG_DETECT flags
 * @hang_host_ms:       timeout to the host event
 * @hang_reboot_ms:     timeout to the warm reboot
 * @hang_running:       the timer runs since @hang_start_ns
 * @hang_start_ns:      EC clock at START_NOW
 * @hang_event_sent:    HANG_DETECT raised for this run
 * @cutoff_at_shutdown: BATTERY_CUT_OFF waits for the AP to shut down
 * @cutoff_saw_unplug:  AC was away since the cut-off (a plug wakes the pack)
 * @usb_mode:           USB_CHARGE_SET_MODE per USB-A port
 * @usb_inhibit:        ... no charging in suspend
 */
struct ec_ctl_state {
	struct ec_temp_profile temps_boot[EC_MAX_TEMPS];
	uint32_t charge_limit_ma;
	uint16_t ext_current_ma, ext_voltage_mv;
	uint32_t hibernate_delay_s;
	uint8_t wireless_now, wireless_suspend;
	bool force_lid_open;
	uint32_t hang_flags;
	uint16_t hang_host_ms, hang_reboot_ms;
	bool hang_running;
	uint64_t hang_start_ns;
	bool hang_event_sent;
	bool cutoff_at_shutdown;
	bool cutoff_saw_unplug;
	uint8_t usb_mode[EC_USB_A_PORTS_MAX];
	bool usb_inhibit[EC_USB_A_PORTS_MAX];
};

#define EC_PD_LOG_LEN	16

/* One PD log record (ec_cmd_pd.c). */
struct ec_pd_log_entry {
	uint64_t ns;			/* EC clock when it happened */
	uint8_t type;			/* PD_EVENT_* */
	uint8_t port;
	uint8_t size;			/* payload bytes */
	uint16_t data;
	uint8_t payload[8];
};

/**
 * struct ec_pd_ctl_state - the PD side the host controls (ec_cmd_pd.c);
 * EC RAM, set up again at every boot.
 * @log:              the PD event log, a ring
 * @log_head:         its oldest entry
 * @log_count:        entries in it
 * @override_port:    PD_CHARGE_PORT_OVERRIDE: a port, OVERRIDE_OFF or _DONT_CHARGE
 * @suspended:        PD_CONTROL suspended the port's chip
 * @control_disabled: PD_CONTROL_DISABLE was sent
 * @bist_share:       TYPEC_CONTROL BIST share mode
 */
struct ec_pd_ctl_state {
	struct ec_pd_log_entry log[EC_PD_LOG_LEN];
	unsigned int log_head, log_count;
	int16_t override_port;
	bool suspended[EC_MAX_PD_PORTS];
	bool control_disabled;
	uint8_t bist_share;
};

/**
 * struct ec_fp_state - the fingerprint MCU's sensor, templates and secrets
 * (ec_cmd_fp.c). The buffers exist only on a board with a sensor.
 * @mode:           FP_MODE as the host set it, less what the MCU finished
 * @finger:         a finger is on the sensor
 * @enrolling:      an enrollment session runs (FP_MODE_ENROLL_SESSION seen)
 * @enroll_touches: images taken in this enrollment
 * @reset_done_ns:  a sensor reset (RESET_SENSOR) ends then; 0 = none running
 * @dead_pixels:    FP_INFO's dead-pixel count, UNKNOWN until a maintenance
 * @frame:          the last capture, frame_size bytes
 * @frame_valid:    bytes of it a capture filled (0: none since the reset)
 * @frame_offset:   where a simple image starts in @frame
 * @templates:      template_max raw templates (template_size less metadata)
 * @xfer:           one encrypted template being downloaded or uploaded
 * @templ_valid:    templates in use
 * @templ_dirty:    bit n: template n changed since the host last read it
 * @user_id:        FP_CONTEXT's user
 * @seed:           FP_SEED's TPM seed; @seed_set once per boot
 * @next_encrypt_ns: one template encryption a second at most
 * @capture_us:     FP_STATS: the last capture's duration ...
 * @match_us:       ... the last match's ...
 * @overall_us:     ... finger to event ...
 * @t0_us:          ... and when it began, in EC microseconds
 * @stats_invalid:  FPSTATS_*_INV
 * @matched:        the template the last match found, -1 none
 * @nonce:          counts encryptions (a fresh nonce each)
 */
struct ec_fp_state {
	uint32_t mode;
	bool finger;
	bool enrolling;
	uint32_t enroll_touches;
	uint64_t reset_done_ns;
	uint16_t dead_pixels;
	uint8_t *frame;
	uint32_t frame_valid;
	uint32_t frame_offset;
	uint8_t *templates;
	uint8_t *xfer;
	uint16_t templ_valid;
	uint32_t templ_dirty;
	uint32_t user_id[FP_CONTEXT_USERID_WORDS];
	uint8_t seed[FP_CONTEXT_TPM_BYTES];
	bool seed_set;
	uint64_t next_encrypt_ns;
	uint32_t capture_us, match_us, overall_us;
	uint64_t t0_us;
	uint8_t stats_invalid;
	int8_t matched;
	uint64_t nonce;
};

/**
 * struct ec_rwsig_state - the RW signature check and the rollback region
 * (ec_cmd_rwsig.c).
 * @rollback_id:      the rollback block in use (each ADD_ENTROPY writes the other)
 * @min_version:      the rollback region's minimum RW version
 * @secret:           the region's secret, stirred by ADD_ENTROPY
 * @entropy_done_ns:  an ADD_ENTROPY runs until then; 0 = none running
 * @entropy_result:   EC_RES_* of the last one, for GET_RESULT
 * @aborted:          RWSIG_ACTION abort: the next boot stays in RO
 */
struct ec_rwsig_state {
	int32_t rollback_id;
	int32_t min_version;
	uint8_t secret[32];
	uint64_t entropy_done_ns;
	uint32_t entropy_result;
	bool aborted;
};

#define EC_MOTION_FIFO_SIZE	256	/* entries: CONFIG_ACCEL_FIFO_SIZE of many boards */

/**
 * struct ec_motion_sensor_state - one motion sensor (ec_cmd_motion.c).
 * @phys:   what it feels: g (accelerometer) or degrees a second (gyroscope)
 * @range:  full scale now, g or degrees a second
 * @ap_odr: the rate the AP asked for, mHz, rounded; 0 = none
 * @ec_rate_us: the AP's collection interval, 0 = the EC's own
 * @offset: calibration offset, in counts, added to each reading
 * @scale:  calibration scale, MOTION_SENSE_DEFAULT_SCALE = 1.0
 * @calib_temp: temperature the offset was taken at (centi-degrees C)
 * @lost:   FIFO samples of this sensor dropped since the host last asked
 */
struct ec_motion_sensor_state {
	double phys[3];
	uint32_t range;
	uint32_t ap_odr;
	uint32_t ec_rate_us;
	int16_t offset[3];
	uint16_t scale[3];
	int16_t calib_temp;
	uint16_t lost;
};

/**
 * struct ec_motion_state - the convertible's sensors, lid angle and tablet
 * mode (ec_cmd_motion.c).
 * @sensor:        per sensor
 * @angle:         the hinge angle the lid is at, degrees 0..360
 * @open_angle:    the angle a lid-open goes back to
 * @lid_angle:     the EC's last reading: degrees, or LID_ANGLE_UNRELIABLE
 * @tablet:        tablet mode, as the EC decided it
 * @tablet_angle:  TABLET_MODE_LID_ANGLE's threshold ...
 * @tablet_hys:    ... and hysteresis
 * @kb_wake_angle: KB_WAKE_ANGLE
 * @fifo:          the sensor FIFO, a ring of @fifo_count from @fifo_head
 * @fifo_lost:     FIFO entries dropped since the host last asked
 * @fifo_int:      FIFO_INT_ENABLE: the FIFO raises MKBP SENSOR_FIFO events
 * @sample_id:     counts memory-map updates (EC_MEMMAP_ACC_STATUS)
 */
struct ec_motion_state {
	struct ec_motion_sensor_state sensor[EC_MOTION_SENSORS_MAX];
	uint32_t angle;
	uint32_t open_angle;
	uint16_t lid_angle;
	bool tablet;
	uint16_t tablet_angle, tablet_hys;
	int32_t kb_wake_angle;
	struct ec_response_motion_sensor_data fifo[EC_MOTION_FIFO_SIZE];
	uint32_t fifo_head, fifo_count;
	uint16_t fifo_lost;
	bool fifo_int;
	uint8_t sample_id;
};

/**
 * struct ec_buttons_state - the side buttons (ec_cmd_buttons.c).
 * @held:       held now (bit EC_MKBP_*)
 * @release_ns: EC clock when the press ends; 0 = none held
 */
struct ec_buttons_state {
	uint32_t held;
	uint64_t release_ns;
};

#define EC_AP_RESET_LOG_LEN		4	/* the firmware's reset_logs[] */
#define EC_CHARGESPLASH_REQUESTS	5	/* requests allowed per period */

/**
 * struct ec_chipset_state - the AP power settings the host made and what
 * the EC did to the AP (ec_cmd_chipset.c); EC RAM, cleared at every boot.
 * @pause_in_s5:   GSV_PAUSE_IN_S5: stay in S5 on the way down
 * @reboot_at_g3:  REBOOT_AP_ON_G3 was asked ...
 * @g3_delay_s:    ... with this many seconds in G3 first
 * @ap_resets:     AP resets since the EC booted (GET_UPTIME_INFO)
 * @ap_reset_cause: the last EC_AP_RESET_LOG_LEN resets' causes ...
 * @ap_reset_ms:   ... and EC uptimes, a ring whose next slot is
 *                 @ap_resets % EC_AP_RESET_LOG_LEN
 * @splash_requested: CHARGESPLASH: the AP was powered on for the splash
 * @splash_display:   ... and its display came up
 * @splash_locked:    ... too many requests: locked out
 * @splash_log_s:     the last requests' EC uptimes in seconds, a ring ...
 * @splash_log_used:  ... bit n: slot n holds one
 * @splash_next:      ... whose next slot this is
 */
struct ec_chipset_state {
	bool pause_in_s5;
	bool reboot_at_g3;
	uint32_t g3_delay_s;
	uint32_t ap_resets;
	uint16_t ap_reset_cause[EC_AP_RESET_LOG_LEN];
	uint32_t ap_reset_ms[EC_AP_RESET_LOG_LEN];
	bool splash_requested;
	bool splash_display;
	bool splash_locked;
	uint64_t splash_log_s[EC_CHARGESPLASH_REQUESTS];
	uint32_t splash_log_used;
	unsigned int splash_next;
};

#define EC_BATT_FIRST_USE_SLOTS	3

/**
 * struct ec_battery_host_state - battery settings of the host
 * (ec_cmd_battery.c).
 * @first_use:       the pack's first-use date slots (in the pack: kept over
 *                   EC resets) ...
 * @first_use_slots: ... written so far
 * @hours_to_zero:   SMART_DISCHARGE (EC RAM from here on) ...
 * @rate_cutoff_ua:  ... discharge rate in cutoff ...
 * @rate_hibern_ua:  ... and in hibernation ...
 * @zone_cutoff_mah: ... below this the EC cuts the pack off ...
 * @zone_stayup_mah: ... below this it stays up
 */
struct ec_battery_host_state {
	uint32_t first_use[EC_BATT_FIRST_USE_SLOTS];
	unsigned int first_use_slots;
	uint16_t hours_to_zero;
	uint16_t rate_cutoff_ua, rate_hibern_ua;
	int32_t zone_cutoff_mah, zone_stayup_mah;
};

/**
 * struct ec - one simulated EC. All mutable state lives here, under @lock.
 */
struct ec {
	pthread_mutex_t lock;
	struct ec_profile prof;
	struct ec_clock clock;
	uint64_t boot_ns;
	uint64_t last_ns;		/* state is advanced up to here */
	uint32_t rtc_at_boot;		/* seconds since the epoch at boot */
	uint64_t latency_ns;
	bool latency_overridden;	/* ec_set_latency_ns() beats profile rules */
	uint64_t rng;
	struct ec_fault_plan *fault_plan;	/* ec_set_fault_plan(), or NULL */
	struct ec_replay *replay;		/* ec_set_replay(), or NULL */

	bool lid_open;
	bool ac_present;
	uint32_t load_percent;

	/* battery */
	double batt_mah;		/* remaining charge */
	double batt_ma;			/* +charging, -discharging */
	double batt_discharged_mah;	/* towards the next cycle */
	uint32_t batt_cycles;
	uint8_t batt_level;		/* 0 ok, 1 low, 2 critical */
	bool batt_full_reported;
	uint32_t chg_mode;		/* enum ec_charge_control_mode */
	int8_t sustain_lower, sustain_upper;

	/* thermal */
	double temp_k[EC_MAX_TEMPS];
	uint8_t temp_level[EC_MAX_TEMPS];	/* thresholds currently exceeded */
	double fan_rpm[EC_MAX_FANS];
	bool fan_auto[EC_MAX_FANS];
	bool fan_by_rpm[EC_MAX_FANS];	/* manual by RPM target, else by duty */
	uint32_t fan_duty[EC_MAX_FANS];
	uint32_t fan_target_rpm[EC_MAX_FANS];

	uint8_t led_brightness[EC_MAX_LEDS][EC_LED_COLOR_COUNT];
	bool led_auto[EC_MAX_LEDS];
	uint8_t gpio_value[EC_MAX_GPIOS];
	struct ec_pd_port_state pd[EC_MAX_PD_PORTS];
	uint32_t flash_protect_flags;	/* GPIO_ASSERTED always mirrors wp_asserted */
	bool wp_asserted;		/* hardware write protect (EC_WP_L low) */
	struct ec_flash_state flash;
	struct ec_keyboard_state kb;
	struct ec_board_state board;
	struct ec_sys_state sys;
	struct ec_ctl_state ctl;
	struct ec_pd_ctl_state pdc;
	struct ec_fp_state fp;
	struct ec_rwsig_state rwsig;
	struct ec_motion_state motion;
	struct ec_buttons_state buttons;
	struct ec_chipset_state chipset;
	struct ec_battery_host_state batt_host;

	/* console: a ring; positions are absolute byte counts */
	char console[EC_CONSOLE_SIZE];
	uint64_t con_head;
	uint64_t con_snap_end, con_read_pos;
	uint64_t con_recent_pos, con_last_snap;

	uint8_t panic[EC_PANIC_MAX];
	size_t panic_len;

	/* events */
	uint64_t host_events;		/* the main copy, mirrored in the memory map */
	struct ec_host_event_state hostev;
	struct ec_event host_queue[EC_HOST_QUEUE_LEN];
	unsigned int hq_head, hq_count;
	/*
	 * The notifier chain. Events wait in the outbox (under @lock) and are
	 * delivered in order by one thread at a time, holding @chain_lock but
	 * not @lock; register and unregister take @chain_lock too, so an
	 * unregister waits for a delivery in progress. @deliverer is the
	 * delivering thread (0: none), so that its own calls back into the EC
	 * neither deliver recursively nor deadlock.
	 */
	pthread_mutex_t chain_lock;
	struct ec_notifier *chain;
	atomic_uintptr_t deliverer;
	struct ec_event outbox[EC_OUTBOX_LEN];
	unsigned int ob_head, ob_count;
	uint64_t outbox_dropped;

	/* a response held back by an injected IN_PROGRESS, for RESEND_RESPONSE */
	bool saved_valid;
	uint32_t saved_status;
	size_t saved_len;
	uint8_t *saved_resp;

	uint8_t memmap[EC_MEMMAP_SIZE];

	/*
	 * The PD MCUs behind this EC, [passthru] device n at @passthru[n]
	 * (NULL: none), each an EC of its own with its own lock, clock
	 * readings and state; created and destroyed with this one. The
	 * parent's lock is taken before a child's, never the reverse.
	 */
	struct ec *passthru[EC_PASSTHRU_DEVICES_MAX + 1];

	/* Scratch buffers of max(packet - 8, 256) bytes: requests zero-filled. */
	size_t req_room, resp_room;
	uint8_t *req_buf;
	uint8_t *resp_buf;
};

/**
 * struct ec_cmd_args - one host command as a handler sees it.
 * @ec:        the EC, locked
 * @version:   command version (already checked against the table)
 * @req:       request, zero-filled to at least 256 bytes
 * @req_len:   bytes the host actually sent
 * @resp:      response scratch of at least 256 bytes
 * @resp_max:  what the host can take; the dispatcher turns a larger
 *             @resp_size into RESPONSE_TOO_BIG, variable-length string
 *             answers truncate to it instead
 * @resp_size: set by the handler
 */
struct ec_cmd_args {
	struct ec *ec;
	uint32_t version;
	const uint8_t *req;
	size_t req_len;
	uint8_t *resp;
	size_t resp_max;
	size_t resp_size;
};

/* A host command's handler: returns an EC_RES_* code. */
typedef int (*ec_cmd_handler)(struct ec_cmd_args *args);

/**
 * struct ec_cmd_entry - one host command as its subsystem declares it.
 * @command:  host command number
 * @versions: EC_VER_MASK() of every version served, never 0
 * @handler:  the handler, static in the subsystem's file
 */
struct ec_cmd_entry {
	uint16_t command;
	uint32_t versions;
	ec_cmd_handler handler;
};

/* One row of a subsystem's command array (the firmware's DECLARE_HOST_COMMAND). */
#define EC_HOST_COMMAND(cmd, vers, fn)	{ .command = (cmd), .versions = (vers), .handler = (fn) }

/**
 * struct ec_subsystem - an EC subsystem as it declares itself;
 * ec_subsystems.c derives the command table, GET_CMD_VERSIONS, the boot
 * sequence and the time advance from the list below.
 * @name:    for messages and tests
 * @cmds:    its host commands, sorted by number (a test checks it)
 * @n_cmds:  entries in @cmds
 * @create:  sets up what lasts the EC's whole life (kept over resets), at
 *           ec_create() before the first boot, in list order; returns 0 or
 *           -ENOMEM; NULL = none
 * @destroy: frees what @create allocated (also when a later @create failed);
 *           NULL = none
 * @footprint: heap bytes it owns now, for ec_memory_footprint(); NULL = none
 * @boot:    sets its part of the EC up at power-on and at every EC reset,
 *           called in list order with the EC locked (or being created); NULL = none
 * @advance: acts on the EC clock having reached ec->last_ns (timers,
 *           alarms), called in list order after the physics; NULL = none
 * @host_command: a host command arrived and is about to run; NULL = none
 * @stimulus: the world did something to the EC (ec_apply_stimulus()),
 *           called with the EC locked after the core's own part; NULL = none
 * @memmap:  fills its part of the memory map, after the core's (the map
 *           is cleared first), with the EC locked; NULL = none
 * @kinds:   EC_KIND_MASK() of the firmware built with this subsystem's
 *           commands; 0 = the main EC's only. Its hooks run on every kind
 *           (they find nothing to do where the board lacks the hardware).
 */
struct ec_subsystem {
	const char *name;
	const struct ec_cmd_entry *cmds;
	size_t n_cmds;
	int (*create)(struct ec *ec);
	void (*destroy)(struct ec *ec);
	size_t (*footprint)(const struct ec *ec);
	void (*boot)(struct ec *ec);
	void (*advance)(struct ec *ec);
	void (*host_command)(struct ec *ec);
	void (*stimulus)(struct ec *ec, enum ec_stimulus stim);
	void (*memmap)(struct ec *ec, uint8_t *map);
	uint32_t kinds;
};

/* The subsystems the laptop EC and the fingerprint MCU are built with. */
#define EC_KINDS_ALL	(EC_KIND_MASK(EC_KIND_EC) | EC_KIND_MASK(EC_KIND_FPMCU))
/* ... and the core a PD MCU has too: system, flash geometry, reboot. */
#define EC_KINDS_CORE	(EC_KINDS_ALL | EC_KIND_MASK(EC_KIND_PD))

#define EC_SUBSYSTEM_CMDS(array)	.cmds = (array), .n_cmds = sizeof(array) / sizeof((array)[0])

/*
 * The subsystems, one line each, in boot order; ec_cmd_<name>.c defines
 * ec_subsys_<name>. Adding one means a line here and its file in local.mk.
 */
#define EC_SUBSYSTEMS(X)	\
	X(system)		\
	X(flash)		\
	X(flashrw)		\
	X(power)		\
	X(thermal)		\
	X(usbpd)		\
	X(console)		\
	X(gpio_led)		\
	X(events)		\
	X(hostevent)		\
	X(keyboard)		\
	X(rtc)			\
	X(port80)		\
	X(adc_cbi)		\
	X(i2c)			\
	X(reboot)		\
	X(settings)		\
	X(pd)			\
	X(rwsig)		\
	X(fp)			\
	X(motion)		\
	X(buttons)		\
	X(chipset)		\
	X(battery)

#define EC_SUBSYS_DECLARE(name)	extern const struct ec_subsystem ec_subsys_##name;
EC_SUBSYSTEMS(EC_SUBSYS_DECLARE)
#undef EC_SUBSYS_DECLARE

/* The derived command table never holds more than this many commands. */
#define EC_CMDS_MAX	256

/* ec_cmd_pd.c */
bool ec_pd_suspended(const struct ec *ec, unsigned int port);
/* ec_cmd_adc_cbi.c, ec_cmd_i2c.c */
void ec_cbi_eeprom_read(struct ec *ec, uint8_t *buf, size_t len);
bool ec_cbi_eeprom_write(struct ec *ec, const uint8_t *data, size_t len);
bool ec_i2c_port_exists(const struct ec *ec, uint32_t port);
/* ec_cmd_rtc.c, ec_cmd_port80.c */
void ec_port80_write(struct ec *ec, uint16_t code);
void ec_port80_resume(struct ec *ec);
void ec_port80_ap_boot(struct ec *ec);


/* ec_cmd_flashrw.c (called with ec->lock held). */
void ec_flash_settle(struct ec *ec);


/* ec_subsystems.c: what is derived from the subsystems' declarations. */
size_t ec_cmd_table_fill(const struct ec_cmd_entry **out, size_t room);
const struct ec_cmd_entry *ec_cmd_find(uint32_t command);
const struct ec_cmd_entry *ec_cmd_find_kind(uint32_t command, uint32_t kind);
uint32_t ec_cmd_table_versions(uint32_t command);
int ec_subsystems_create(struct ec *ec);
void ec_subsystems_destroy(struct ec *ec);
size_t ec_subsystems_footprint(const struct ec *ec);
void ec_subsystems_boot(struct ec *ec);
void ec_subsystems_advance(struct ec *ec);
void ec_subsystems_host_command(struct ec *ec);
void ec_subsystems_stimulus(struct ec *ec, enum ec_stimulus stim);
void ec_subsystems_memmap(struct ec *ec, uint8_t *map);

/* ec.c: helpers for handlers (all called with ec->lock held). */
const struct ec_cmd_entry *ec_cmd_lookup(const struct ec *ec, uint32_t command);

/* ec_fault.c: the fault the plan injects into @command now, and its value. */
enum ec_fault_kind ec_fault_plan_draw(struct ec_fault_plan *plan, uint32_t command,
				      uint64_t *arg);
uint32_t ec_cmd_versions(const struct ec *ec, uint32_t command);

/* ec_recording.c: helpers both formats' parsers share. */
int ec_rec_hex_decode(const char *hex, size_t hex_len, uint8_t *out, size_t room,
		      size_t *out_len);
int ec_rec_hex_write(FILE *out, const uint8_t *buf, size_t len, bool upper);
void ec_rec_err(char *err, size_t errlen, unsigned int line, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
int ec_rec_parse_ret(const char *val, int32_t *out, unsigned int line, char *err,
		     size_t errlen);
/* ec_recording_umockdev.c: umockdev's .ioctl lines, one at a time. */
bool ec_umockdev_first_line(const char *line);
int ec_umockdev_parse_line(char *line, unsigned int lineno, struct ec_recording *rec,
			   uint8_t *buf, char *err, size_t errlen);
int ec_umockdev_write(const struct ec_rec *r, FILE *out);
/* ec_replay.c: the replay's answer, if it has one (true: answered). */
bool ec_replay_xcmd(struct ec_replay *replay, uint32_t command, uint32_t version,
		    const void *req, size_t req_len, void *resp, size_t resp_max,
		    uint32_t *status, int *ret);
bool ec_replay_readmem(struct ec_replay *replay, uint32_t offset, uint32_t bytes, void *buf,
		       int *ret);
void ec_memmap_refresh(struct ec *ec);
void ec_console_log(struct ec *ec, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void ec_raise_host_event(struct ec *ec, enum ec_host_event event);
void ec_queue_event(struct ec *ec, uint8_t type, const void *payload, size_t len);
uint64_t ec_uptime_ms(const struct ec *ec);
uint32_t ec_battery_percent(const struct ec *ec);
uint32_t ec_battery_flags(const struct ec *ec);
uint32_t ec_battery_voltage_mv(const struct ec *ec);
uint32_t ec_fan_duty_now(const struct ec *ec, unsigned int fan);
void ec_copy_str(char *dst, size_t room, const char *src);
/* ec_state.c: the physical state, advanced to the clock's now; the boot. */
bool ec_lid_reported(const struct ec *ec);
double ec_charge_current_max(const struct ec *ec);
bool ec_battery_cutoff_settle(struct ec *ec);
bool ec_pd_charge_allowed(const struct ec *ec);
void ec_flash_protect_follow(struct ec *ec);
bool ec_system_locked(const struct ec *ec);
void ec_wp_apply(struct ec *ec, bool asserted);
void ec_boot(struct ec *ec, uint32_t reset_flags);
void ec_advance(struct ec *ec);
void ec_lock_advance(struct ec *ec);
double ec_batt_full(const struct ec *ec);

/* ec_events.c: the MKBP switches (lid open, tablet mode) now and on the board. */
uint32_t ec_mkbp_switches(const struct ec *ec);
uint32_t ec_mkbp_switches_supported(const struct ec_profile *prof);

/* ec_notifier.c: unlock, then deliver queued events to the chain. */
void ec_unlock_notify(struct ec *ec);
int ec_notifier_init(struct ec *ec);
void ec_notifier_fini(struct ec *ec);
/* ec_events.c: AC and USB-PD agree; the PD event log. */
void ec_pd_log_add(struct ec *ec, uint8_t type, unsigned int port, uint16_t data,
		   const void *payload, uint8_t size);
void ec_pd_log_attach(struct ec *ec, unsigned int port);
void ec_pd_log_power(struct ec *ec, unsigned int port);
void ec_pd_follow_ac(struct ec *ec);

/* ec.c: the clock's reading. */
uint64_t ec_now(const struct ec *ec);

static inline void ec_put_le32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
	p[2] = (uint8_t)(v >> 16);
	p[3] = (uint8_t)(v >> 24);
}

#endif /* EC_EC_INTERNAL_H */
