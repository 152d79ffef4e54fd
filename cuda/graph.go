package cuda

import "fmt"

// Stream is a CUDA stream of a [Context]. It is a blocking stream: work on
// it waits for earlier work on the default stream and the default stream
// waits for it, as with the legacy default stream. Streams exist here to
// capture [Graph]s; everything else in the package queues on the default
// stream.
type Stream struct {
	c *Context
	h handle
}

// NewStream creates a stream.
func (c *Context) NewStream() (*Stream, error) {
	s := &Stream{c: c}
	if err := c.call("cuStreamCreate", func() Result { return drv.cuStreamCreate(&s.h, 0) }); err != nil {
		return nil, err
	}
	return s, nil
}

// Destroy destroys the stream once its work is done; a second Destroy does
// nothing.
func (s *Stream) Destroy() error {
	if s.h == 0 {
		return nil
	}
	h := s.h
	s.h = 0
	return s.c.call("cuStreamDestroy", func() Result { return drv.cuStreamDestroy(h) })
}

// Copy queues a device-to-device copy of n bytes from src to dst on s.
func (s *Stream) Copy(dst, src DevicePtr, n int64) error {
	if n == 0 {
		return nil
	}
	return s.c.call("cuMemcpyDtoDAsync", func() Result { return drv.cuMemcpyDtoDAsync(dst, src, uint64(n), s.h) })
}

// Graph is an instantiated CUDA graph: work captured once from a stream and
// launched as a whole, the driver queueing its launches back to back on
// the device with no host round trip between them. Timing a graph of many
// launches of a short kernel measures the kernel, not the host's launch
// overhead (what Triton's do_bench_cudagraph does).
type Graph struct {
	c       *Context
	g, exec handle
	nodes   int
}

// captureGlobal is CU_STREAM_CAPTURE_MODE_GLOBAL: while the capture runs,
// calls unsafe during a capture (allocations, synchronous copies) fail on
// every thread instead of silently escaping the graph.
const captureGlobal = 0

// Capture runs f on the context's thread with a new stream in capture mode
// and returns the graph of what f queued on it ([Launch.RunOn],
// [Stream.Copy]); nothing runs until [Graph.Launch]. An error of f (or a
// call f made that a capture does not allow) ends the capture and is
// returned.
func (c *Context) Capture(f func(s *Stream) error) (*Graph, error) {
	gr := &Graph{c: c}
	err := c.Do(func() error {
		s, err := c.NewStream()
		if err != nil {
			return err
		}
		defer s.Destroy()
		if err := check("cuStreamBeginCapture", drv.cuStreamBeginCapture(s.h, captureGlobal)); err != nil {
			return err
		}
		ferr := f(s)
		eerr := check("cuStreamEndCapture", drv.cuStreamEndCapture(s.h, &gr.g))
		if ferr != nil || eerr != nil {
			if gr.g != 0 {
				drv.cuGraphDestroy(gr.g)
				gr.g = 0
			}
			if ferr != nil {
				return ferr
			}
			return eerr
		}
		var n uint64
		if err := check("cuGraphGetNodes", drv.cuGraphGetNodes(gr.g, nil, &n)); err != nil {
			drv.cuGraphDestroy(gr.g)
			return err
		}
		gr.nodes = int(n)
		if err := check("cuGraphInstantiate", drv.cuGraphInstantiateWithFlags(&gr.exec, gr.g, 0)); err != nil {
			drv.cuGraphDestroy(gr.g)
			return err
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return gr, nil
}

// Nodes is the number of operations (launches, copies) the graph holds.
func (g *Graph) Nodes() int { return g.nodes }

// Launch queues the whole graph on the default stream.
func (g *Graph) Launch() error {
	if g.exec == 0 {
		return fmt.Errorf("cuda: Launch of a destroyed graph")
	}
	return g.c.call("cuGraphLaunch", func() Result { return drv.cuGraphLaunch(g.exec, 0) })
}

// Destroy frees the graph; a second Destroy does nothing.
func (g *Graph) Destroy() error {
	if g.exec == 0 {
		return nil
	}
	exec, gh := g.exec, g.g
	g.exec, g.g = 0, 0
	return g.c.Do(func() error {
		err := check("cuGraphExecDestroy", drv.cuGraphExecDestroy(exec))
		if gerr := check("cuGraphDestroy", drv.cuGraphDestroy(gh)); err == nil {
			err = gerr
		}
		return err
	})
}
