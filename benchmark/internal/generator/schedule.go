// Package generator offers workflow starts at a target rate, open-loop: each start is due
// at a time fixed by the schedule, never by earlier completions, so a slow server shows up
// as latency and not as a lower offered rate.
package generator

import (
	"math"
	"time"
)

// Schedule is a linear ramp from 0 to Rate starts/s over RampUp, then Rate until Duration.
type Schedule struct {
	Rate     float64
	Duration time.Duration
	RampUp   time.Duration
}

// expected is how many starts are due by t: the integral of the offered rate.
func (s Schedule) expected(t time.Duration) float64 {
	r, tr, x := s.Rate, s.RampUp.Seconds(), t.Seconds()
	if x <= tr {
		return r * x * x / (2 * tr)
	}
	return r*tr/2 + r*(x-tr)
}

// Total is the number of starts the whole schedule offers.
func (s Schedule) Total() int {
	return int(math.Floor(s.expected(s.Duration) + 1e-9))
}

// Due is when start k (from 0) is due, as an offset from the start of the run: the time by
// which k starts have been offered, so start 0 is due at once.
func (s Schedule) Due(k int) time.Duration {
	r, tr, n := s.Rate, s.RampUp.Seconds(), float64(k)
	var sec float64
	if n <= r*tr/2 {
		sec = math.Sqrt(2 * tr * n / r)
	} else {
		sec = tr + (n-r*tr/2)/r
	}
	return time.Duration(sec * float64(time.Second))
}
