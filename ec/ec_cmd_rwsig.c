// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ec_cmd_rwsig.c - the RW image's signature and the rollback region, as a
 * fingerprint MCU has them: RWSIG_INFO (the key RW is signed with),
 * RWSIG_ACTION (to the RO's RWSIG task) or RWSIG_CHECK_STATUS (on a
 * firmware without that task), ROLLBACK_INFO and ADD_ENTROPY.
 *
 * The signature itself is not computed: the model's RW image is always
 * well signed, and what can still make the check fail is what the
 * firmware checks before the signature, an RW rollback version below the
 * rollback region's minimum.
 */
#include <string.h>

#include "common/common.h"
#include "ec_internal.h"
#include "sha256.h"

#define NS_PER_MS	1000000ull

/*
 * ADD_ENTROPY erases and writes a flash block of the rollback region: the
 * model lets it take this long on the EC clock, so GET_RESULT is BUSY
 * first, as on the chip.
 */
#define EC_ENTROPY_NS	(250 * NS_PER_MS)

/* The rollback region is flash: set up once, kept over EC resets. */
static int ec_rwsig_init(struct ec *ec)
{
	ec->rwsig.rollback_id = 0;
	ec->rwsig.min_version = (int32_t)ec->prof.rollback_min_version;
	memset(ec->rwsig.secret, 0, sizeof(ec->rwsig.secret));
	return 0;
}

/* At every boot: no operation running, the RWSIG task waiting. */
static void ec_rwsig_boot(struct ec *ec)
{
	struct ec_rwsig_state *rs = &ec->rwsig;

	rs->entropy_done_ns = 0;
	rs->entropy_result = EC_RES_SUCCESS;
	rs->aborted = false;
}

/* An ADD_ENTROPY finishes when the EC clock reaches its end. */
static void ec_rwsig_settle(struct ec *ec)
{
	struct ec_rwsig_state *rs = &ec->rwsig;

	if (!rs->entropy_done_ns || ec->last_ns < rs->entropy_done_ns)
		return;
	rs->entropy_done_ns = 0;
	rs->entropy_result = EC_RES_SUCCESS;
	ec_console_log(ec, "rollback: entropy added, block %d", rs->rollback_id);
}

/**
 * ec_cmd_rwsig_info() - RWSIG_INFO v0: the signing key's algorithms and
 * version from the profile; its ID is the first 20 bytes of a SHA-256 of
 * the board name (a model's choice: stable per board, different between
 * boards).
 */
static int ec_cmd_rwsig_info(struct ec_cmd_args *args)
{
	struct ec_response_rwsig_info *r = (void *)args->resp;
	const struct ec_profile *prof = &args->ec->prof;
	uint8_t digest[SHA256_DIGEST_SIZE];
	struct sha256_ctx ctx;

	sha256_init(&ctx);
	sha256_update(&ctx, prof->board, strlen(prof->board));
	sha256_final(&ctx, digest);
	r->sig_alg = (uint16_t)prof->rwsig_sig_alg;
	r->hash_alg = (uint16_t)prof->rwsig_hash_alg;
	r->key_version = prof->rwsig_key_version;
	memcpy(r->key_id, digest, sizeof(r->key_id));
	r->key_is_valid = 1;
	args->resp_size = sizeof(*r);
	return EC_RES_SUCCESS;
}

/**
 * ec_cmd_rwsig_check_status() - RWSIG_CHECK_STATUS v0: 1 when RW would
 * verify now, 0 when its rollback version is below the region's minimum.
 */
static int ec_cmd_rwsig_check_status(struct ec_cmd_args *args)
{
	struct ec_response_rwsig_check_status *r = (void *)args->resp;
	const struct ec *ec = args->ec;

	r->status = (int64_t)ec->prof.rw_rollback_version >= ec->rwsig.min_version;
	args->resp_size = sizeof(*r);
	return EC_RES_SUCCESS;
}

/**
 * ec_cmd_rwsig_action() - RWSIG_ACTION v0: ABORT or CONTINUE to the RWSIG
 * task, which runs in RO only: in RO, CONTINUE jumps to RW at once and
 * ABORT keeps the EC in RO; in RW the task is over and both change
 * nothing. Anything else, or a short request, is INVALID_PARAM.
 */
static int ec_cmd_rwsig_action(struct ec_cmd_args *args)
{
	const struct ec_params_rwsig_action *p = (const void *)args->req;
	struct ec *ec = args->ec;

	if (args->req_len < sizeof(*p))
		return EC_RES_INVALID_PARAM;
	if (p->action != RWSIG_ACTION_ABORT && p->action != RWSIG_ACTION_CONTINUE)
		return EC_RES_INVALID_PARAM;
	if (ec->prof.current_image != EC_IMAGE_RO || ec->rwsig.aborted)
		return EC_RES_SUCCESS;
	if (p->action == RWSIG_ACTION_ABORT) {
		ec->rwsig.aborted = true;
		ec_console_log(ec, "rwsig: aborted, staying in RO");
		return EC_RES_SUCCESS;
	}
	if ((int64_t)ec->prof.rw_rollback_version < ec->rwsig.min_version) {
		/* RW does not verify: the task never jumps. */
		ec_console_log(ec, "rwsig: RW rollback version too old, staying in RO");
		return EC_RES_SUCCESS;
	}
	ec->prof.current_image = EC_IMAGE_RW;
	ec->sys.reset_flags |= EC_RESET_FLAG_SYSJUMP;
	ec_console_log(ec, "rwsig: RW verified, jumping to RW");
	return EC_RES_SUCCESS;
}

/**
 * ec_cmd_add_entropy() - ADD_ENTROPY v0: ASYNC and RESET_ASYNC start
 * stirring new randomness into the rollback secret (RESET_ASYNC also
 * overwrites the old copy: both blocks are written), which takes
 * EC_ENTROPY_NS; GET_RESULT answers BUSY until it is done, then its
 * result. A start while one runs is BUSY; an unknown action or a short
 * request INVALID_PARAM.
 */
static int ec_cmd_add_entropy(struct ec_cmd_args *args)
{
	const struct ec_params_rollback_add_entropy *p = (const void *)args->req;
	struct ec *ec = args->ec;
	struct ec_rwsig_state *rs = &ec->rwsig;
	struct sha256_ctx ctx;
	uint64_t stir;

	if (args->req_len < sizeof(*p))
		return EC_RES_INVALID_PARAM;
	switch (p->action) {
	case ADD_ENTROPY_GET_RESULT:
		return rs->entropy_done_ns ? EC_RES_BUSY : (int)rs->entropy_result;
	case ADD_ENTROPY_ASYNC:
	case ADD_ENTROPY_RESET_ASYNC:
		break;
	default:
		return EC_RES_INVALID_PARAM;
	}
	if (rs->entropy_done_ns)
		return EC_RES_BUSY;
	/* The new secret: the old one hashed with time and the EC's RNG. */
	stir = ec->last_ns ^ xorshift64s_next(&ec->rng);
	sha256_init(&ctx);
	sha256_update(&ctx, rs->secret, sizeof(rs->secret));
	sha256_update(&ctx, &stir, sizeof(stir));
	sha256_final(&ctx, rs->secret);
	/* Each write goes to the other block; a reset writes both. */
	rs->rollback_id += p->action == ADD_ENTROPY_RESET_ASYNC ? 2 : 1;
	rs->entropy_done_ns = ec->last_ns + EC_ENTROPY_NS;
	rs->entropy_result = EC_RES_ERROR;
	return EC_RES_SUCCESS;
}

/** ec_cmd_rollback_info() - ROLLBACK_INFO v0: block id and versions. */
static int ec_cmd_rollback_info(struct ec_cmd_args *args)
{
	struct ec_response_rollback_info *r = (void *)args->resp;
	const struct ec *ec = args->ec;

	r->id = ec->rwsig.rollback_id;
	r->rollback_min_version = ec->rwsig.min_version;
	r->rw_rollback_version = (int32_t)ec->prof.rw_rollback_version;
	args->resp_size = sizeof(*r);
	return EC_RES_SUCCESS;
}

/* This subsystem's host commands, sorted by number. */
static const struct ec_cmd_entry ec_rwsig_cmds[] = {
	EC_HOST_COMMAND(EC_CMD_RWSIG_INFO, EC_VER_MASK(0), ec_cmd_rwsig_info),
	EC_HOST_COMMAND(EC_CMD_RWSIG_CHECK_STATUS, EC_VER_MASK(0), ec_cmd_rwsig_check_status),
	EC_HOST_COMMAND(EC_CMD_RWSIG_ACTION, EC_VER_MASK(0), ec_cmd_rwsig_action),
	EC_HOST_COMMAND(EC_CMD_ADD_ENTROPY, EC_VER_MASK(0), ec_cmd_add_entropy),
	EC_HOST_COMMAND(EC_CMD_ROLLBACK_INFO, EC_VER_MASK(0), ec_cmd_rollback_info),
};

const struct ec_subsystem ec_subsys_rwsig = {
	.name = "rwsig",
	EC_SUBSYSTEM_CMDS(ec_rwsig_cmds),
	.create = ec_rwsig_init,
	.boot = ec_rwsig_boot,
	.advance = ec_rwsig_settle,
	.kinds = EC_KIND_MASK(EC_KIND_FPMCU),
};
