import { useCallback, useState } from 'react';

export interface FieldRule {
  required?: boolean;
  pattern?: RegExp;
  message: string;
}

type Rules<K extends string> = Partial<Record<K, FieldRule[]>>;

/** The first rule a value breaks, or undefined. A required text is empty when it is only spaces. */
export function fieldError(value: string, rules: FieldRule[] = []): string | undefined {
  for (const rule of rules) {
    if (rule.required && !value.trim()) return rule.message;
    if (rule.pattern && value && !rule.pattern.test(value)) return rule.message;
  }
  return undefined;
}

/**
 * Text fields with validation on blur and on submit, for the login forms. antd's Form would add
 * about 30 KB to the login page's first download for four fields.
 */
export function useFields<K extends string>(initial: Record<K, string>, rules: Rules<K>) {
  const [values, setValues] = useState(initial);
  const [errors, setErrors] = useState<Partial<Record<K, string>>>({});

  const check = useCallback((name: K, value: string) => {
    const error = fieldError(value, rules[name]);
    setErrors((e) => ({ ...e, [name]: error }));
    return !error;
  }, [rules]);

  const setValue = useCallback((name: K, value: string) => {
    setValues((v) => ({ ...v, [name]: value }));
    // An error goes away as soon as the value is good; a new one waits for blur or submit.
    setErrors((e) => (e[name] && !fieldError(value, rules[name]) ? { ...e, [name]: undefined } : e));
  }, [rules]);

  /** Validates the named fields (all with rules by default); true when all are good. */
  const validate = (names: K[] = Object.keys(rules) as K[]) => names.map((n) => check(n, values[n])).every(Boolean);

  /** Props for an antd Input bound to `name`. */
  const bind = (name: K) => ({
    name,
    value: values[name],
    status: errors[name] ? ('error' as const) : undefined,
    'aria-invalid': !!errors[name],
    onChange: (e: { target: { value: string } }) => setValue(name, e.target.value),
    onBlur: () => check(name, values[name]),
  });

  return { values, errors, setValue, validate, bind };
}
