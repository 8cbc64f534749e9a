pragma circom 2.0.0;
// circomlib MiMC-7 with 91 rounds: x_in public, key k private, hash public.
include "mimc.circom";

component main {public [x_in]} = MiMC7(91);
