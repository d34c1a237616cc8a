import { PASSWORD_INPUT_WIDTH, PASSWORD_LABEL_WIDTH } from '../../../shared/constants';

/** An antd form rule from a shared validator (`checkMobile`, `checkEmail`...): empty passes, else its message. */
export function ruleFrom(check: (value: string) => string | undefined) {
  return {
    validator: (_: unknown, value: string | null | undefined) => {
      const problem = value ? check(value) : undefined;
      return problem ? Promise.reject(new Error(problem)) : Promise.resolve();
    },
  };
}

/** Spec §5: the first invalid field is scrolled smoothly into view, centred (antd `scrollToFirstError`). */
export const SCROLL_TO_ERROR = { behavior: 'smooth', block: 'center' } as const;

/** The personal-centre forms use the password dialog's measures (spec §9: labels 88px, inputs 370px). */
export const FORM_LAYOUT = { labelCol: { flex: `${PASSWORD_LABEL_WIDTH}px` }, wrapperCol: { flex: `${PASSWORD_INPUT_WIDTH}px` } } as const;
