pragma circom 2.0.0;
// SHA-256 of a 55-byte (440-bit) message: the longest message whose padding fits one
// 512-bit block, so the circuit runs exactly one compression. Bits are MSB-first per byte.
include "sha256/sha256.circom";

template Sha256OneBlock() {
    signal input in[440];
    signal output out[256];
    component h = Sha256(440);
    for (var i = 0; i < 440; i++) h.in[i] <== in[i];
    for (var i = 0; i < 256; i++) out[i] <== h.out[i];
}

component main = Sha256OneBlock();
