// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ec_subsystems.c - the EC's subsystems as one list, and everything derived
 * from their declarations: the command lookup behind dispatch and
 * GET_CMD_VERSIONS, the merged command table, and the hooks run in list
 * order (create, destroy, footprint, boot, advance, host command).
 */
#include <stddef.h>

#include "ec_internal.h"

/*
 * The subsystems, in boot order, derived from EC_SUBSYSTEMS(): each one
 * declares its host commands beside their handlers and its hooks, and
 * everything below (dispatch, GET_CMD_VERSIONS, boot, time advance) is
 * derived from those declarations, so no list is kept twice.
 */
#define EC_SUBSYS_REF(name)	&ec_subsys_##name,
static const struct ec_subsystem *const ec_subsystems[] = {
	EC_SUBSYSTEMS(EC_SUBSYS_REF)
};
#undef EC_SUBSYS_REF

#define EC_N_SUBSYSTEMS	(sizeof(ec_subsystems) / sizeof(ec_subsystems[0]))

/* Binary search of one subsystem's sorted command array. */
static const struct ec_cmd_entry *ec_subsys_find(const struct ec_subsystem *sub,
						 uint32_t command)
{
	size_t lo = 0, hi = sub->n_cmds;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (sub->cmds[mid].command == command)
			return &sub->cmds[mid];
		if (sub->cmds[mid].command < command)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

/* The search behind ec_cmd_find() and ec_cmd_find_kind(); @kinds: a mask. */
static const struct ec_cmd_entry *ec_cmd_search(uint32_t command, uint32_t kinds)
{
	const struct ec_cmd_entry *entry;
	size_t i;

	if (command > 0xFFFF)
		return NULL;
	for (i = 0; i < EC_N_SUBSYSTEMS; i++) {
		const struct ec_subsystem *sub = ec_subsystems[i];
		uint32_t built = sub->kinds ? sub->kinds : EC_KIND_MASK(EC_KIND_EC);

		if (!(built & kinds) || !sub->n_cmds || command < sub->cmds[0].command ||
		    command > sub->cmds[sub->n_cmds - 1].command)
			continue;
		entry = ec_subsys_find(sub, command);
		if (entry)
			return entry;
	}
	return NULL;
}

/**
 * ec_cmd_find() - the entry a subsystem declared for @command, ignoring any
 * board profile. A search per subsystem: a dozen and a half short arrays,
 * no table built at run time and so no shared mutable state.
 * @command: host command number
 *
 * Return: the entry, or NULL when no subsystem declares @command.
 */
const struct ec_cmd_entry *ec_cmd_find(uint32_t command)
{
	return ec_cmd_search(command, UINT32_MAX);
}

/**
 * ec_cmd_find_kind() - ec_cmd_find() among the subsystems built into the
 * firmware of one kind (struct ec_subsystem's kinds).
 * @command: host command number
 * @kind:    enum ec_kind
 *
 * Return: the entry, or NULL when that firmware has no such command.
 */
const struct ec_cmd_entry *ec_cmd_find_kind(uint32_t command, uint32_t kind)
{
	if (kind >= EC_KIND_COUNT)
		return NULL;
	return ec_cmd_search(command, EC_KIND_MASK(kind));
}

/**
 * ec_cmd_table_fill() - the command table derived from every subsystem's
 * declarations, merged in command-number order, for tests and tools.
 * @out:  filled with up to @room entries, sorted by command number
 * @room: entries @out can take (EC_CMDS_MAX is always enough)
 *
 * Return: the number of commands declared in all (may exceed @room).
 */
size_t ec_cmd_table_fill(const struct ec_cmd_entry **out, size_t room)
{
	size_t pos[EC_N_SUBSYSTEMS] = { 0 };
	size_t n = 0, i;

	for (;;) {
		const struct ec_cmd_entry *next = NULL;
		size_t from = 0;

		for (i = 0; i < EC_N_SUBSYSTEMS; i++) {
			const struct ec_subsystem *sub = ec_subsystems[i];

			if (pos[i] < sub->n_cmds &&
			    (!next || sub->cmds[pos[i]].command < next->command)) {
				next = &sub->cmds[pos[i]];
				from = i;
			}
		}
		if (!next)
			return n;
		pos[from]++;
		if (n < room)
			out[n] = next;
		n++;
	}
}

size_t ec_host_command_count(void)
{
	return ec_cmd_table_fill(NULL, 0);
}

uint32_t ec_host_command_number(size_t index)
{
	const struct ec_cmd_entry *table[EC_CMDS_MAX];
	size_t n = ec_cmd_table_fill(table, EC_CMDS_MAX);

	return index < n && index < EC_CMDS_MAX ? table[index]->command : 0xFFFFFFFFu;
}

/**
 * ec_subsystems_create() - run every subsystem's create hook, in list order;
 * when one fails, undo the ones before it.
 * @ec: the EC being created
 *
 * Return: 0, or the failing hook's -errno (-ENOMEM).
 */
int ec_subsystems_create(struct ec *ec)
{
	size_t i;
	int ret;

	for (i = 0; i < EC_N_SUBSYSTEMS; i++) {
		if (!ec_subsystems[i]->create)
			continue;
		ret = ec_subsystems[i]->create(ec);
		if (ret)
			goto err_undo;
	}
	return 0;

err_undo:
	while (i--)
		if (ec_subsystems[i]->destroy)
			ec_subsystems[i]->destroy(ec);
	return ret;
}

/**
 * ec_subsystems_destroy() - run every subsystem's destroy hook, in reverse
 * list order.
 * @ec: the EC being destroyed
 */
void ec_subsystems_destroy(struct ec *ec)
{
	size_t i = EC_N_SUBSYSTEMS;

	while (i--)
		if (ec_subsystems[i]->destroy)
			ec_subsystems[i]->destroy(ec);
}

/**
 * ec_subsystems_footprint() - heap bytes the subsystems own now.
 * @ec: the EC
 *
 * Return: the sum of their footprint hooks.
 */
size_t ec_subsystems_footprint(const struct ec *ec)
{
	size_t i, bytes = 0;

	for (i = 0; i < EC_N_SUBSYSTEMS; i++)
		if (ec_subsystems[i]->footprint)
			bytes += ec_subsystems[i]->footprint(ec);
	return bytes;
}

/**
 * ec_subsystems_host_command() - tell every subsystem a host command is
 * about to run, in list order.
 * @ec: the EC, locked
 */
void ec_subsystems_host_command(struct ec *ec)
{
	size_t i;

	for (i = 0; i < EC_N_SUBSYSTEMS; i++)
		if (ec_subsystems[i]->host_command)
			ec_subsystems[i]->host_command(ec);
}

/**
 * ec_subsystems_stimulus() - tell every subsystem what the world did, in
 * list order.
 * @ec:   the EC, locked
 * @stim: the stimulus
 */
void ec_subsystems_stimulus(struct ec *ec, enum ec_stimulus stim)
{
	size_t i;

	for (i = 0; i < EC_N_SUBSYSTEMS; i++)
		if (ec_subsystems[i]->stimulus)
			ec_subsystems[i]->stimulus(ec, stim);
}

/**
 * ec_subsystems_memmap() - let every subsystem fill its part of the memory
 * map, in list order.
 * @ec:  the EC, locked
 * @map: the EC_MEMMAP_SIZE-byte map the core has just filled
 */
void ec_subsystems_memmap(struct ec *ec, uint8_t *map)
{
	size_t i;

	for (i = 0; i < EC_N_SUBSYSTEMS; i++)
		if (ec_subsystems[i]->memmap)
			ec_subsystems[i]->memmap(ec, map);
}

/**
 * ec_subsystems_boot() - run every subsystem's boot hook, in list order.
 * @ec: the EC, locked (or being created)
 */
void ec_subsystems_boot(struct ec *ec)
{
	size_t i;

	for (i = 0; i < EC_N_SUBSYSTEMS; i++)
		if (ec_subsystems[i]->boot)
			ec_subsystems[i]->boot(ec);
}

/**
 * ec_subsystems_advance() - run every subsystem's advance hook, in list
 * order, once the physics reached ec->last_ns.
 * @ec: the EC, locked
 */
void ec_subsystems_advance(struct ec *ec)
{
	size_t i;

	for (i = 0; i < EC_N_SUBSYSTEMS; i++)
		if (ec_subsystems[i]->advance)
			ec_subsystems[i]->advance(ec);
}
