#blocked = #ttg.blocked<{
    sizePerThread=[1, 1],
    threadsPerWarp=[16, 2],
    bogus = 1,
    warpsPerCTA=[4, 1],
    order=[0, 1]
}>
