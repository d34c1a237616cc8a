-- Units as a data scope (issue 24 §2): a role's scope may name units (单位), or all of them, for modules
-- scoped by a unit field and for the workflow level "the managing department of the record's unit".
-- A role with data_scope 'all' covers every unit as well.
ALTER TABLE roles ADD COLUMN unit_scope text NOT NULL DEFAULT 'custom' CHECK (unit_scope IN ('all', 'custom'));
ALTER TABLE roles ADD COLUMN scope_unit_ids integer[] NOT NULL DEFAULT '{}';
