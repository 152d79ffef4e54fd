package gencheck_test

import (
	"os"
	"strings"

	"github.com/layoutopt/layoutopt/lit/gencheck"
)

func ExampleGenerate() {
	ir := `#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module {
  tt.func @add(%arg0: tensor<128xi32, #blocked>) -> tensor<128xi32, #blocked> {
    %0 = arith.addi %arg0, %arg0 : tensor<128xi32, #blocked>
    tt.return %0 : tensor<128xi32, #blocked>
  }
}
`
	if err := gencheck.Generate(os.Stdout, strings.NewReader(ir), gencheck.Options{}); err != nil {
		panic(err)
	}
	// Output:
	// // CHECK: #[[$BLOCKED:.+]] = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
	// // CHECK-LABEL: tt.func @add(
	// // CHECK-SAME:  %[[ARG0:[a-zA-Z0-9$._-]+]]: tensor<128xi32, #[[$BLOCKED]]>) -> tensor<128xi32, #[[$BLOCKED]]> {
	// // CHECK:           %[[VAL_0:.*]] = arith.addi %[[ARG0]], %[[ARG0]] : tensor<128xi32, #[[$BLOCKED]]>
	// // CHECK:           tt.return %[[VAL_0]] : tensor<128xi32, #[[$BLOCKED]]>
	// // CHECK:         }
}
