package cuda

import "time"

// Event is a CUDA event, for timing work on the default stream.
type Event struct {
	c *Context
	h handle
}

// NewEvent creates an event (with timing).
func (c *Context) NewEvent() (*Event, error) {
	e := &Event{c: c}
	if err := c.call("cuEventCreate", func() Result { return drv.cuEventCreate(&e.h, 0) }); err != nil {
		return nil, err
	}
	return e, nil
}

// Record queues the event on the default stream.
func (e *Event) Record() error {
	return e.c.call("cuEventRecord", func() Result { return drv.cuEventRecord(e.h, 0) })
}

// Synchronize waits for the event to complete.
func (e *Event) Synchronize() error {
	return e.c.call("cuEventSynchronize", func() Result { return drv.cuEventSynchronize(e.h) })
}

// Since returns the device time between start and e, both recorded and
// complete (resolution about half a microsecond).
func (e *Event) Since(start *Event) (time.Duration, error) {
	var ms float32
	err := e.c.call("cuEventElapsedTime", func() Result { return drv.cuEventElapsedTime(&ms, start.h, e.h) })
	return time.Duration(float64(ms) * float64(time.Millisecond)), err
}

// Destroy destroys the event; a second Destroy does nothing.
func (e *Event) Destroy() error {
	if e.h == 0 {
		return nil
	}
	h := e.h
	e.h = 0
	return e.c.call("cuEventDestroy", func() Result { return drv.cuEventDestroy(h) })
}

// Time runs f n times on the context's thread, each run between two
// events on the default stream, and returns the device time of each run.
// f(i) should only queue work (launches, device copies); Time waits for all
// of it once at the end.
func (c *Context) Time(n int, f func(i int) error) ([]time.Duration, error) {
	evs := make([]*Event, 2*n)
	defer func() {
		for _, e := range evs {
			if e != nil {
				e.Destroy()
			}
		}
	}()
	out := make([]time.Duration, n)
	err := c.Do(func() error {
		for i := range evs {
			e, err := c.NewEvent()
			if err != nil {
				return err
			}
			evs[i] = e
		}
		for i := range n {
			if err := evs[2*i].Record(); err != nil {
				return err
			}
			if err := f(i); err != nil {
				return err
			}
			if err := evs[2*i+1].Record(); err != nil {
				return err
			}
		}
		if n == 0 {
			return nil
		}
		if err := evs[2*n-1].Synchronize(); err != nil {
			return err
		}
		for i := range n {
			d, err := evs[2*i+1].Since(evs[2*i])
			if err != nil {
				return err
			}
			out[i] = d
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}
