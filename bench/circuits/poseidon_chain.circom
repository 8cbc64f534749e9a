pragma circom 2.0.0;
// A chain of N circomlib Poseidon(2) hashes: h_0 = seed, h_{i+1} = Poseidon(h_i, i).
// With -p bls12381 one Poseidon(2) is 517 constraints: N = 126 gives 65,142 constraints,
// about 2^16 rows (the size of the snarkjs reference timing in issue 6).
include "poseidon.circom";

template PoseidonChain(N) {
    signal input seed;
    signal output out;
    component h[N];
    signal acc[N + 1];
    acc[0] <== seed;
    for (var i = 0; i < N; i++) {
        h[i] = Poseidon(2);
        h[i].inputs[0] <== acc[i];
        h[i].inputs[1] <== i;
        acc[i + 1] <== h[i].out;
    }
    out <== acc[N];
}

component main {public [seed]} = PoseidonChain(126);
