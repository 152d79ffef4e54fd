package attr

// NewBlocked is Triton's BlockedEncodingAttr builder from a shape: given the
// elements each thread holds (sizePerThread) and the dims from fastest to
// slowest (order), it spreads the lanes and then the warps over the dims,
// fastest first, each dim taking as many threads as its per-CTA extent
// needs (shapePerCTA[i] / sizePerThread[i]) of those left, and gives the
// slowest dim the lanes and warps that remain. Used by the coalesce pass.
// sizePerThread and order must have the shape's rank (at least 1) and numWarps and
// threadsPerWarp be powers of two; the result is then a valid layout.
func NewBlocked(shape, sizePerThread, order []int, numWarps, threadsPerWarp int, cga CGALayout) *Blocked {
	rank := len(sizePerThread)
	lanes := make([]int, rank)
	warps := make([]int, rank)
	per := shapePerCTA(cga, shape)
	remainingLanes, remainingThreads, remainingWarps := threadsPerWarp, numWarps*threadsPerWarp, numWarps
	prevLanes, prevWarps := 1, 1
	for _, i := range order[:rank-1] {
		threads := clamp(remainingThreads, 1, max(1, per[i]/sizePerThread[i]))
		lanes[i] = clamp(threads, 1, remainingLanes)
		warps[i] = clamp(threads/lanes[i], 1, remainingWarps)
		remainingWarps /= warps[i]
		remainingLanes /= lanes[i]
		remainingThreads /= threads
		prevLanes *= lanes[i]
		prevWarps *= warps[i]
	}
	lanes[order[rank-1]] = threadsPerWarp / prevLanes
	warps[order[rank-1]] = numWarps / prevWarps
	return &Blocked{
		SizePerThread:  append([]int(nil), sizePerThread...),
		ThreadsPerWarp: lanes,
		WarpsPerCTA:    warps,
		Order:          append([]int(nil), order...),
		CGA:            cga,
	}
}

func clamp(v, lo, hi int) int { return min(max(v, lo), hi) }
