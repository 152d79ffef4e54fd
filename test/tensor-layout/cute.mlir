// CuTe layouts need no -t: the default view is Mojo's print_layout table,
// in either notation, nested modes and swizzles included; layouts that are
// linear over GF(2) also have -view linear and -view json.

// RUN: tensor-layout -l '(6,4):(4,1)' | FileCheck %s --check-prefix=TABLE --match-full-lines --strict-whitespace
// Mojo's notation, and -view table (or tensor) given explicitly, print the same.
// RUN: tensor-layout -l '((6, 4):(4, 1))' -view table | FileCheck %s --check-prefix=TABLE --match-full-lines --strict-whitespace
// RUN: tensor-layout -l '(6,4):(4,1)' -view tensor | FileCheck %s --check-prefix=TABLE --match-full-lines --strict-whitespace
// TABLE:((6, 4):(4, 1))
// TABLE-NEXT:       0    1    2    3
// TABLE-NEXT:    +----+----+----+----+
// TABLE-NEXT: 0  |  0 |  1 |  2 |  3 |
// TABLE-NEXT:    +----+----+----+----+
// TABLE-NEXT: 1  |  4 |  5 |  6 |  7 |
// TABLE-NEXT:    +----+----+----+----+
// TABLE-NEXT: 2  |  8 |  9 | 10 | 11 |
// TABLE-NEXT:    +----+----+----+----+
// TABLE-NEXT: 3  | 12 | 13 | 14 | 15 |
// TABLE-NEXT:    +----+----+----+----+
// TABLE-NEXT: 4  | 16 | 17 | 18 | 19 |
// TABLE-NEXT:    +----+----+----+----+
// TABLE-NEXT: 5  | 20 | 21 | 22 | 23 |
// TABLE-NEXT:    +----+----+----+----+
// TABLE-EMPTY:

// A hierarchical row mode: rows (2,2):(1,8).
// RUN: tensor-layout -l '((2,2),4):((1,8),2)' | FileCheck %s --check-prefix=NESTED --match-full-lines
// NESTED:      (((2, 2), 4):((1, 8), 2))
// NESTED-NEXT: 0    1    2    3
// NESTED-NEXT: +----+----+----+----+
// NESTED-NEXT: 0  |  0 |  2 |  4 |  6 |
// NESTED-NEXT: +----+----+----+----+
// NESTED-NEXT: 1  |  1 |  3 |  5 |  7 |
// NESTED-NEXT: +----+----+----+----+
// NESTED-NEXT: 2  |  8 | 10 | 12 | 14 |
// NESTED-NEXT: +----+----+----+----+
// NESTED-NEXT: 3  |  9 | 11 | 13 | 15 |

// Swizzled: Sw<1,0,1> flips bit 0 when bit 1 is set.
// RUN: tensor-layout -l 'Sw<1,0,1> o (2,2):(2,1)' | FileCheck %s --check-prefix=SWIZZLE --match-full-lines
// SWIZZLE:      Sw<1,0,1> o 0 o ((2, 2):(2, 1))
// SWIZZLE-NEXT: 0   1
// SWIZZLE-NEXT: +---+---+
// SWIZZLE-NEXT: 0  | 0 | 1 |
// SWIZZLE-NEXT: +---+---+
// SWIZZLE-NEXT: 1  | 3 | 2 |
// SWIZZLE-NEXT: +---+---+
// SWIZZLE-EMPTY:

// The linear form: one input dim per mode, one basis per bit of it.
// RUN: tensor-layout -l '(8,8):(8,1)' -view linear | FileCheck %s --check-prefix=LINEAR --match-full-lines
// RUN: tensor-layout -l '((8, 8):(8, 1))' -view linear | FileCheck %s --check-prefix=LINEAR --match-full-lines
// LINEAR: {mode0 = {{\[\[}}8], [16], [32]], mode1 = {{\[\[}}1], [2], [4]]} -> offset[64]
// RUN: tensor-layout -l 'Sw<1,1,1> o (4,4):(4,1)' -view linear | FileCheck %s --check-prefix=SWIZZLE-LINEAR --match-full-lines
// SWIZZLE-LINEAR: {mode0 = {{\[\[}}6], [8]], mode1 = {{\[\[}}1], [2]]} -> offset[16]
// RUN: tensor-layout -l 'Sw<1,0,1> o (2,2):(2,1)' -view json | FileCheck %s --check-prefix=SWIZZLE-JSON --match-full-lines
// SWIZZLE-JSON: {"layout":"Sw<1,0,1> o 0 o (2,2):(2,1)","shape":[2,2],"in_dims":[{"name":"mode0","size":2,"bases":{{\[\[}}3]]},{"name":"mode1","size":2,"bases":{{\[\[}}1]]}],"out_dims":[{"name":"offset","size":4}]}

// Not linear: a size that is not a power of two, strides whose bits overlap.
// RUN: not tensor-layout -l '(6,4):(4,1)' -view linear 2>&1 | FileCheck %s --check-prefix=NOT-LINEAR-SIZE
// RUN: not tensor-layout -l '(6,4):(4,1)' -view json 2>&1 | FileCheck %s --check-prefix=NOT-LINEAR-SIZE
// NOT-LINEAR-SIZE: tensor-layout: error: (6,4):(4,1) has no linear form: {{.*}}not linear over GF(2): size is not a power of two: 24
// RUN: not tensor-layout -l '(4,2):(1,3)' -view linear 2>&1 | FileCheck %s --check-prefix=NOT-LINEAR-BITS
// NOT-LINEAR-BITS: tensor-layout: error: (4,2):(1,3) has no linear form: {{.*}}coordinate bits overlap
// RUN: not tensor-layout -l 'Sw<1,0,1> o (3,2):(2,1)' -view linear 2>&1 | FileCheck %s --check-prefix=NOT-LINEAR-SWIZZLE
// NOT-LINEAR-SWIZZLE: tensor-layout: error: Sw<1,0,1> o (3,2):(2,1) has no linear form: {{.*}}size is not a power of two: 6

// CuTe layouts have no hw view; a malformed one is located.
// RUN: not tensor-layout -l '(6,4):(4,1)' -view hw 2>&1 | FileCheck %s --check-prefix=NO-HW
// NO-HW: tensor-layout: error: -view hw is not available for CuTe layouts (use table, linear, json or svg)
// RUN: not tensor-layout -l '(6,4' 2>&1 | FileCheck %s --check-prefix=UNCLOSED --match-full-lines --strict-whitespace
// UNCLOSED:-l:1:1: error: unclosed '('
// UNCLOSED-NEXT:(6,4
// UNCLOSED-NEXT:^
