-- The claims of the domain reminder jobs (development, transfers): their reminders are the runtime's now
-- (x-reminders, table reminders of 0120), announced once per record, type and due date.
DROP TABLE workflow_reminders;
