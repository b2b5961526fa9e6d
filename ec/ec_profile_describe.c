// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ec_profile_describe.c - a parsed board profile as text, for profile
 * authors: what the EC will report, one area a line, so a typo that parsed
 * into something unintended (a missing sensor, a port left disconnected)
 * shows before a client ever asks.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>

#include "ec_profile.h"

static const char *ec_describe_image(uint32_t image)
{
	switch (image) {
	case EC_IMAGE_RO:
		return "RO";
	case EC_IMAGE_RW:
		return "RW";
	default:
		return "unknown";
	}
}

static void ec_describe_temps(const struct ec_profile *p, FILE *out)
{
	unsigned int i;

	fprintf(out, "temperatures: %u\n", p->n_temps);
	for (i = 0; i < p->n_temps; i++) {
		const struct ec_temp_profile *t = &p->temps[i];

		fprintf(out, "  %u: %s, type %u, ambient %" PRIu32 " K, +%" PRIu32
			" K at full load, fans %" PRIu32 "-%" PRIu32 " K\n",
			i, t->name, t->type, t->ambient_k, t->load_rise_k,
			t->fan_off_k, t->fan_max_k);
	}
}

static void ec_describe_pd(const struct ec_profile *p, FILE *out)
{
	unsigned int i;

	fprintf(out, "usb-pd ports: %u\n", p->n_pd_ports);
	for (i = 0; i < p->n_pd_ports; i++) {
		const struct ec_pd_port_profile *port = &p->pd_ports[i];

		if (!port->connected) {
			fprintf(out, "  %u: nothing attached\n", i);
			continue;
		}
		fprintf(out, "  %u: %s, %" PRIu32 " mV %" PRIu32 " mA%s\n", i,
			port->partner_source ? "charger (we sink)" : "sink (we source)",
			port->voltage_mv, port->current_ma,
			port->dp ? ", DisplayPort" : "");
	}
}

/* The fingerprint MCU's sensor and signature, in place of the keyboard. */
static void ec_describe_fp(const struct ec_profile *p, FILE *out)
{
	fprintf(out, "fingerprint:  sensor %08" PRIx32 ":%" PRIu32 " model %#" PRIx32
		", %" PRIu32 " x %" PRIu32 " %s, frame %" PRIu32 " bytes, %" PRIu32
		" templates of %" PRIu32 " bytes\n", p->fp_vendor_id, p->fp_product_id,
		p->fp_model_id, p->fp_width, p->fp_height, p->fp_pixel_format, p->fp_frame_size,
		p->fp_template_max, p->fp_template_size);
	fprintf(out, "rwsig:        %s, key version %" PRIu32 ", rollback minimum %" PRIu32
		", RW rollback version %" PRIu32 "\n",
		p->rwsig_task ? "RWSIG task in RO" : "checked on request", p->rwsig_key_version,
		p->rollback_min_version, p->rw_rollback_version);
}

int ec_profile_describe(const struct ec_profile *profile, FILE *out)
{
	static const char *const kinds[] = {
#define EC_KIND_NAME(id, name) [EC_KIND_##id] = name,
		EC_KINDS(EC_KIND_NAME)
#undef EC_KIND_NAME
	};
	const struct ec_profile *p = profile;
	unsigned int i;

	fprintf(out, "board:        %s (board version %u)\n", p->board, p->board_version);
	fprintf(out, "kind:         %s\n", p->kind < EC_KIND_COUNT ? kinds[p->kind] : "?");
	fprintf(out, "versions:     RO %s, RW %s, running %s\n", p->version_ro,
		p->version_rw, ec_describe_image(p->current_image));
	fprintf(out, "build info:   %s\n", p->build_info);
	fprintf(out, "chip:         %s %s revision %s\n", p->chip_vendor, p->chip_name,
		p->chip_revision);
	fprintf(out, "flash:        %" PRIu32 " bytes, write block %" PRIu32
		", erase block %" PRIu32 ", write protect %s\n", p->flash_size,
		p->flash_write_block, p->flash_erase_block,
		p->write_protect ? "asserted" : "not asserted");
	fprintf(out, "protocol:     request <= %u bytes, response <= %u bytes, "
		"memory map %s\n", p->max_request_packet, p->max_response_packet,
		p->memmap_direct ? "direct (READMEM)" : "through EC_CMD_READ_MEMMAP only");
	fprintf(out, "features:     0x%08" PRIx32 " 0x%08" PRIx32 "\n",
		p->features[0], p->features[1]);
	fprintf(out, "disabled:     %u command(s)", p->n_disabled);
	for (i = 0; i < p->n_disabled; i++)
		fprintf(out, "%s0x%04x", i ? " " : ": ", p->disabled[i]);
	fputc('\n', out);
	fprintf(out, "lid:          %s, AC %s, load %" PRIu32 " %%\n",
		p->lid_open ? "open" : "closed", p->ac_present ? "present" : "absent",
		p->load_percent);
	if (p->has_battery)
		fprintf(out, "battery:      %s %s, %" PRIu32 " mAh %" PRIu32
			" mV design, %" PRIu32 " %% at boot\n", p->batt_manufacturer,
			p->batt_model, p->batt_design_mah, p->batt_design_mv,
			p->batt_initial_percent);
	else
		fprintf(out, "battery:      none\n");
	ec_describe_temps(p, out);
	fprintf(out, "fans:         %u", p->n_fans);
	for (i = 0; i < p->n_fans; i++)
		fprintf(out, "%s%" PRIu32 " rpm", i ? ", " : " (max ", p->fan_max_rpm[i]);
	fprintf(out, "%s\n", p->n_fans ? ")" : "");
	fprintf(out, "leds:         %u, gpios: %u\n", p->n_leds, p->n_gpios);
	ec_describe_pd(p, out);
	if (p->kind == EC_KIND_FPMCU)
		ec_describe_fp(p, out);
	else
		fprintf(out, "keyboard:     %" PRIu32 " x %" PRIu32 " matrix%s\n", p->kb_rows,
			p->kb_cols, p->kb_backlight ? ", backlight" : "");
	fprintf(out, "latency:      %" PRIu64 " ns per command, %u rule(s)\n",
		p->latency_ns, p->n_latency_rules);
	fprintf(out, "faults:       busy %" PRIu32 ", in progress %" PRIu32
		", timeout %" PRIu32 " (ppm)\n", p->fault_busy_ppm,
		p->fault_in_progress_ppm, p->fault_timeout_ppm);
	return ferror(out) ? -EIO : 0;
}
