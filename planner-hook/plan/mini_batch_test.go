package plan

import (
	"strings"
	"testing"
)

func TestCompileMiniBatchAssigner(t *testing.T) {
	for _, c := range []struct {
		name, exec string
		interval   int64
		rowTime    bool
		err        string
	}{
		{name: "processing time", exec: `{"miniBatchInterval": {"interval": 2000, "mode": "ProcTime"}}`, interval: 2000},
		{name: "event time", exec: `{"miniBatchInterval": {"interval": 2000, "mode": "RowTime"}}`, interval: 2000, rowTime: true},
		{name: "event time, zero interval", exec: `{"miniBatchInterval": {"interval": 0, "mode": "RowTime"}}`, err: "interval 0 ms"},
		{name: "no interval", exec: `{}`, err: "no miniBatchInterval"},
		{name: "zero interval", exec: `{"miniBatchInterval": {"interval": 0, "mode": "ProcTime"}}`, err: "interval 0 ms"},
		{name: "unknown mode", exec: `{"miniBatchInterval": {"interval": 5, "mode": "None"}}`, err: `mode "None"`},
	} {
		t.Run(c.name, func(t *testing.T) {
			m, reasons, err := CompileMiniBatchAssigner(&IslandNode{Name: "MiniBatchAssigner#3", Exec: []byte(c.exec)}, nil)
			switch {
			case c.err != "":
				if err == nil || !strings.Contains(err.Error(), c.err) || !strings.Contains(err.Error(), "MiniBatchAssigner#3") {
					t.Errorf("error %v, want one naming the node and %q", err, c.err)
				}
			case err != nil:
				t.Fatal(err)
			case len(reasons) > 0 || m.IntervalMillis != c.interval || m.RowTime != c.rowTime:
				t.Errorf("got %+v, %q; want interval %d, row time %v", m, reasons, c.interval, c.rowTime)
			}
		})
	}
}

func TestMiniBatchSize(t *testing.T) {
	for _, c := range []struct {
		name          string
		conf, options map[string]string
		size          int64
		err           bool
	}{
		{name: "off", conf: map[string]string{OptMiniBatch: "false", OptMiniBatchSize: "5"}},
		{name: "node's own", conf: map[string]string{OptMiniBatch: "true", OptMiniBatchSize: "5"}, size: 5},
		{name: "node's own over the table config", conf: map[string]string{OptMiniBatch: "false"},
			options: map[string]string{OptMiniBatch: "true", OptMiniBatchSize: "5"}},
		{name: "table config", options: map[string]string{OptMiniBatch: "true", OptMiniBatchSize: "7"}, size: 7},
		{name: "flag in capitals", options: map[string]string{OptMiniBatch: "TRUE", OptMiniBatchSize: "7"}, size: 7},
		{name: "size not set", options: map[string]string{OptMiniBatch: "true", OptMiniBatchSize: "-1"}, err: true},
		{name: "size not a number", conf: map[string]string{OptMiniBatch: "true", OptMiniBatchSize: "many"}, err: true},
	} {
		t.Run(c.name, func(t *testing.T) {
			size, err := miniBatchSize(c.conf, c.options)
			if (err != nil) != c.err || size != c.size {
				t.Errorf("size %d, error %v; want %d, error %v", size, err, c.size, c.err)
			}
		})
	}
}
