/* cuzk export-vk <circuit.zkey> <verification_key.json> (snarkjs zkey export
 * verificationkey). */
#include <stdio.h>

#include "cli.h"
#include "groth16/snarkjs_json.h"
#include "groth16/zkey_params.h"

static const char USAGE[] = "usage: cuzk export-vk <circuit.zkey> <verification_key.json>\n";

int cmd_export_vk(int argc, char **argv)
{
    cli_opts o;
    int rc = cli_parse(argc, argv, USAGE, 2, &o);
    if (rc)
        return rc == -1 ? CLI_OK : CLI_ERROR;
    cuzk_error err = {0};
    if (!cli_outputs_distinct("export-vk", &o, 1))
        return CLI_ERROR;
    zkey_t z;
    if (zkey_read_file(&z, o.pos[0], ZKEY_CHECK_SUBGROUP, &err))
        return cli_fail("export-vk", &err);
    groth16_params_t pk;
    groth16_params_from_zkey(&pk, &z);
    cuzk_status st = snarkjs_write_vk(o.pos[1], &pk.vk, &err);
    zkey_free(&z);
    return st ? cli_fail("export-vk", &err) : CLI_OK;
}
