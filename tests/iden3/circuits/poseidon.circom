pragma circom 2.0.0;
// circomlib Poseidon with two inputs; one public input, one private, the hash public.
include "poseidon.circom";

template PoseidonPublic() {
    signal input a;
    signal input b;
    signal output h;
    component p = Poseidon(2);
    p.inputs[0] <== a;
    p.inputs[1] <== b;
    h <== p.out;
}

component main {public [a]} = PoseidonPublic();
