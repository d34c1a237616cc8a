-- A change written by a workflow step to another module's record (a transfer moving a member to another
-- branch, an admission creating the member) names the process record it came from: the member's trail
-- then says which transfer changed the branch. Empty for ordinary edits and imports.
ALTER TABLE change_records ADD COLUMN source_module text, ADD COLUMN source_id integer;
