/**
 * How a refusal names the rule parameter behind it (issue 42): the value and where a school sets it,
 * `公示期不少于5个工作日（规则参数：发展党员·公示工作日）`. Every guard that refuses on a parameter words it here.
 */
import type { RuntimeModule } from '../module.js';
import { ruleParamInfo } from './registry.js';

/** `（规则参数：发展党员·公示工作日）` for the parameter `name` of module `m` (its title, else its name). */
export function paramWhere(m: RuntimeModule, name: string): string {
  const p = m.ruleParams.find((x) => x.info.name === name);
  return `（规则参数：${m.title}·${p?.info.title ?? name}）`;
}

/** The rule's words followed by where its parameter is set: `ruleText(m, 'publicityWorkdays', '公示期不少于5个工作日')`. */
export function paramRule(m: RuntimeModule, name: string, text: string): string {
  return `${text}${paramWhere(m, name)}`;
}

/** The same by registry key, for code without the module at hand (`cadre-assessment.excellentPercent`). */
export function paramWhereKey(key: string): string {
  const p = ruleParamInfo(key);
  return `（规则参数：${p ? `${p.area}·${p.title}` : key}）`;
}
