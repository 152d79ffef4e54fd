// Misspelled flags and encoding keys get a "did you mean" hint.

// RUN: not tensor-layout -veiw linear 2>&1 | FileCheck %s --check-prefix=FLAG
// FLAG:      flag provided but not defined: -veiw
// FLAG-NEXT: did you mean -view?
// FLAG-NEXT: usage: tensor-layout
// RUN: not tensor-layout -alias-name x 2>&1 | FileCheck %s --check-prefix=FLAG2
// FLAG2: did you mean -alias-names?

// RUN: not tensor-layout -l '#ttg.blocked<{sizePerThred = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>' -t 'tensor<128xf16>' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=KEY --match-full-lines
// KEY: -l:1:15: error: unexpected key: sizePerThred; did you mean 'sizePerThread'?
