package iceberg

import (
	"encoding/json"
	"fmt"
)

// mappedField is a field of a name mapping as Iceberg's NameMappingParser prints it.
type mappedField struct {
	ID     *int          `json:"field-id"`
	Names  []string      `json:"names"`
	Fields []mappedField `json:"fields"`
}

// ParseNameMapping reads a table's name mapping (the property schema.name-mapping.default) into
// the field id of each path, as Iceberg's MappingUtil indexes it by name: a field under every
// one of its names, a nested field under every name of its parent joined by a dot (a list's
// element as "element", a map's key and value as "key" and "value", as Iceberg names them).
func ParseNameMapping(mappingJSON string) (map[string]int, error) {
	var fields []mappedField
	if err := json.Unmarshal([]byte(mappingJSON), &fields); err != nil {
		return nil, fmt.Errorf("iceberg name mapping: %w", err)
	}
	out := map[string]int{}
	if err := indexByName(fields, out); err != nil {
		return nil, fmt.Errorf("iceberg name mapping: %w", err)
	}
	return out, nil
}

// indexByName adds the paths of fields (relative to their parent) to out.
func indexByName(fields []mappedField, out map[string]int) error {
	for _, f := range fields {
		children := map[string]int{}
		if err := indexByName(f.Fields, children); err != nil {
			return err
		}
		for _, name := range f.Names {
			for path, id := range children {
				if err := put(out, name+"."+path, id); err != nil {
					return err
				}
			}
			if f.ID != nil {
				if err := put(out, name, *f.ID); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// put adds a path, failing on a path mapped twice (Iceberg's index refuses duplicate keys).
func put(out map[string]int, path string, id int) error {
	if _, ok := out[path]; ok {
		return fmt.Errorf("the name %q is mapped twice", path)
	}
	out[path] = id
	return nil
}
