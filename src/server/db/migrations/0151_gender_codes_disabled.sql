-- Forms offer 男 and 女 (issue 33.7): the national codes 0 未知的性别 and 9 未说明的性别 stay in the
-- dictionary, disabled; a school that asks for them enables them in 字典管理. Stored values keep their labels.
UPDATE dict_details SET disabled = true, updated_at = now() WHERE dict_code = 'DJ_COMM_XB' AND value IN ('0', '9');
