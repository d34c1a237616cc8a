/**
 * The demo question bank: facts of party knowledge, each made into a single-choice, two judge and a
 * fill-in question, plus multiple-choice and short-answer questions: a few hundred questions of all
 * five types. `generateQuestions(n)` repeats the bank with numbered stems to any size (benchmarks).
 */
import { QuestionType } from '../../../shared/constants.js';

/** [stem with ___ for the answer, answer, three wrong answers, knowledge tag (DJ_DX_ZSD)] */
type Fact = [string, string, [string, string, string], string];

const FACTS: Fact[] = [
  ['中国共产党成立于___年。', '1921', ['1919', '1927', '1949'], 'ds'],
  ['中国共产党第一次全国代表大会最后一天的会议转移到___南湖的游船上举行。', '嘉兴', ['上海', '杭州', '南昌'], 'ds'],
  ['南昌起义打响了武装反抗国民党反动派的第一枪，发生于___年。', '1927', ['1921', '1935', '1937'], 'ds'],
  ['___会议确立了毛泽东同志在党中央和红军的领导地位。', '遵义', ['古田', '洛川', '瓦窑堡'], 'ds'],
  ['中华人民共和国成立于___年10月1日。', '1949', ['1945', '1948', '1950'], 'ds'],
  ['党的十一届三中全会召开于___年。', '1978', ['1976', '1980', '1982'], 'ds'],
  ['中国共产党以马克思列宁主义、毛泽东思想、邓小平理论、“三个代表”重要思想、科学发展观、___作为自己的行动指南。', '习近平新时代中国特色社会主义思想', ['社会主义核心价值观', '中华优秀传统文化', '新发展理念'], 'll'],
  ['党的最高理想和最终目标是实现___。', '共产主义', ['社会主义初级阶段', '全面小康', '现代化'], 'dz'],
  ['党的根本宗旨是___。', '全心全意为人民服务', ['实事求是', '解放思想', '艰苦奋斗'], 'dz'],
  ['党的思想路线是一切从实际出发，理论联系实际，___，在实践中检验真理和发展真理。', '实事求是', ['与时俱进', '群众路线', '独立自主'], 'll'],
  ['党的最高领导机关是党的全国代表大会和它所产生的___。', '中央委员会', ['中央政治局', '中央军事委员会', '中央纪律检查委员会'], 'zz'],
  ['党的全国代表大会每___年举行一次。', '五', ['三', '四', '十'], 'zz'],
  ['党的根本组织原则是___。', '民主集中制', ['集体领导', '个人分工负责', '少数服从多数'], 'zz'],
  ['党的基层组织是党在社会基层组织中的___。', '战斗堡垒', ['领导核心', '政治核心', '坚强后盾'], 'zz'],
  ['企业、农村、机关、学校等基层单位，凡是有正式党员___人以上的，都应当成立党的基层组织。', '三', ['五', '七', '十'], 'zz'],
  ['党支部党员大会一般每___召开一次。', '季度', ['月', '半年', '年'], 'zz'],
  ['年满___岁的中国工人、农民、军人、知识分子和其他社会阶层的先进分子，可以申请加入中国共产党。', '十八', ['十六', '十七', '二十'], 'fz'],
  ['预备党员的预备期为___。', '一年', ['半年', '两年', '三个月'], 'fz'],
  ['预备党员的预备期，从支部大会通过他为预备党员之日起计算；党员的党龄，从___之日起算。', '预备期满转为正式党员', ['递交入党申请书', '支部大会通过为预备党员', '确定为入党积极分子'], 'fz'],
  ['发展党员必须有___名正式党员作介绍人。', '两', ['一', '三', '四'], 'fz'],
  ['入党申请人递交入党申请书后，党组织应当在___个月内派人同入党申请人谈话。', '一', ['两', '三', '六'], 'fz'],
  ['入党积极分子经过___以上的培养教育和考察，基本具备党员条件的，可列为发展对象。', '一年', ['半年', '两年', '三个月'], 'fz'],
  ['对发展对象进行短期集中培训，时间一般不少于三天或不少于___个学时。', '二十四', ['十二', '十六', '三十二'], 'fz'],
  ['预备党员必须面向党旗进行___。', '入党宣誓', ['公开承诺', '述职', '民主评议'], 'fz'],
  ['党员如果没有正当理由，连续___个月不参加党的组织生活，或不交纳党费，或不做党所分配的工作，就被认为是自行脱党。', '六', ['三', '四', '十二'], 'jl'],
  ['党的纪律处分有五种：警告、严重警告、撤销党内职务、___、开除党籍。', '留党察看', ['记过', '降级', '停职检查'], 'jl'],
  ['留党察看最长不超过___年。', '两', ['一', '三', '五'], 'jl'],
  ['党的纪律主要包括政治纪律、组织纪律、廉洁纪律、群众纪律、___和生活纪律。', '工作纪律', ['财经纪律', '宣传纪律', '保密纪律'], 'jl'],
  ['“三会一课”中的“一课”是指___。', '党课', ['团课', '理论课', '形势政策课'], 'zz'],
  ['党员领导干部应当以___身份参加所在党支部的组织生活会。', '普通党员', ['上级领导', '列席人员', '指导员'], 'zz'],
  ['党的群众路线是一切为了群众，一切依靠群众，___，把党的正确主张变为群众的自觉行动。', '从群众中来，到群众中去', ['密切联系群众', '为群众办实事', '向群众学习'], 'll'],
  ['中国特色社会主义最本质的特征是___。', '中国共产党领导', ['人民当家作主', '依法治国', '公有制为主体'], 'll'],
  ['新时代党的建设总要求中，把党的___建设摆在首位。', '政治', ['思想', '组织', '作风'], 'dz'],
  ['“四个意识”是指政治意识、大局意识、___、看齐意识。', '核心意识', ['责任意识', '忧患意识', '法治意识'], 'll'],
  ['“四个自信”是指道路自信、理论自信、制度自信、___。', '文化自信', ['历史自信', '民族自信', '发展自信'], 'll'],
  ['党员必须履行的义务共有___项。', '八', ['六', '七', '十'], 'dz'],
  ['党员享有的权利共有___项。', '八', ['六', '七', '十'], 'dz'],
  ['党费是党员向党组织交纳的用于开展党的活动的经费，交纳党费是党员的___。', '义务', ['权利', '自愿行为', '荣誉'], 'dz'],
  ['党的作风建设的核心是保持党同人民群众的___。', '血肉联系', ['鱼水关系', '密切往来', '共同利益'], 'll'],
  ['中国共产党是中国工人阶级的先锋队，同时是___的先锋队。', '中国人民和中华民族', ['全体劳动者', '知识分子', '青年'], 'dz'],
  ['党的领导主要是政治、思想和___的领导。', '组织', ['经济', '文化', '军事'], 'dz'],
  ['党章规定，党的地方各级代表大会每___年举行一次。', '五', ['三', '四', '六'], 'zz'],
  ['党的基层委员会每届任期___年至五年。', '三', ['两', '四', '六'], 'zz'],
  ['党支部委员会每届任期___年。', '三', ['两', '四', '五'], 'zz'],
  ['入党誓词中写道：“我志愿加入中国共产党，拥护党的纲领，遵守党的章程，履行党员义务，执行党的决定，严守党的纪律，保守党的秘密，对党忠诚，积极工作，为___奋斗终身”。', '共产主义', ['社会主义', '民族复兴', '人民幸福'], 'dz'],
  ['党的十八大以来，全面从严治党的根本遵循是___。', '党章', ['宪法', '准则', '条例'], 'dz'],
  ['中国共产党第二十次全国代表大会召开于___年。', '2022', ['2017', '2020', '2021'], 'ds'],
  ['“两个确立”中的第一个是确立___同志党中央的核心、全党的核心地位。', '习近平', ['毛泽东', '邓小平', '江泽民'], 'll'],
  ['坚持和发展中国特色社会主义，总任务是实现社会主义现代化和___。', '中华民族伟大复兴', ['全面建成小康社会', '共同富裕', '祖国统一'], 'll'],
  ['发展党员工作应当贯彻党的基本理论、基本路线、基本方略，按照控制总量、优化结构、提高质量、___的总要求。', '发挥作用', ['严格程序', '保证数量', '注重实效'], 'fz'],
];

const MULTIPLE: [string, string[], string, string][] = [
  ['“三会一课”包括（ ）。', ['支部党员大会', '支部委员会', '党小组会', '党课', '民主生活会'], 'ABCD', 'zz'],
  ['发展党员的程序包括（ ）。', ['递交入党申请书', '确定入党积极分子', '确定发展对象', '接收预备党员', '直接转为正式党员'], 'ABCD', 'fz'],
  ['党的纪律处分包括（ ）。', ['警告', '严重警告', '撤销党内职务', '留党察看', '罚款'], 'ABCD', 'jl'],
  ['“四个自信”包括（ ）。', ['道路自信', '理论自信', '制度自信', '文化自信', '经济自信'], 'ABCD', 'll'],
  ['“四个意识”包括（ ）。', ['政治意识', '大局意识', '核心意识', '看齐意识', '创新意识'], 'ABCD', 'll'],
  ['党员的义务包括（ ）。', ['认真学习党的理论', '贯彻执行党的基本路线', '坚持党和人民的利益高于一切', '自觉遵守党的纪律', '担任党内职务'], 'ABCD', 'dz'],
  ['党的思想路线的内容包括（ ）。', ['一切从实际出发', '理论联系实际', '实事求是', '在实践中检验真理和发展真理', '以阶级斗争为纲'], 'ABCD', 'll'],
  ['党的作风包括（ ）。', ['理论联系实际', '密切联系群众', '批评与自我批评', '形式主义', '官僚主义'], 'ABC', 'll'],
  ['入党积极分子的培养联系人的职责有（ ）。', ['向入党积极分子介绍党的基本知识', '了解入党积极分子的政治觉悟、道德品质、现实表现和家庭情况', '及时向党支部汇报情况', '向党支部提出能否列为发展对象的意见', '代替支部作出决定'], 'ABCD', 'fz'],
  ['党的民主集中制的基本原则包括（ ）。', ['个人服从组织', '少数服从多数', '下级组织服从上级组织', '全党各个组织和全体党员服从党的全国代表大会和中央委员会', '上级服从下级'], 'ABCD', 'zz'],
];

const SHORT: [string, string, string][] = [
  ['请简述党员的八项义务。', '认真学习党的理论；贯彻执行党的基本路线和各项方针政策；坚持党和人民的利益高于一切；自觉遵守党的纪律；维护党的团结和统一；切实开展批评和自我批评；密切联系群众；发扬社会主义新风尚。', 'dz'],
  ['请简述发展党员工作的五个阶段。', '入党申请人的申请、入党积极分子的确定和培养教育、发展对象的确定和考察、预备党员的接收、预备党员的教育考察和转正。', 'fz'],
  ['请谈谈你对“全心全意为人民服务”这一党的根本宗旨的理解。', '言之有理即可：宗旨是党的根本性质的体现；要坚持以人民为中心，密切联系群众，把人民利益放在首位，结合自身学习工作实际谈体会。', 'dz'],
  ['什么是民主集中制？它的基本原则有哪些？', '民主集中制是民主基础上的集中和集中指导下的民主相结合；基本原则：个人服从组织、少数服从多数、下级组织服从上级组织、全党服从全国代表大会和中央委员会等。', 'zz'],
  ['请简述“三会一课”制度的内容。', '定期召开支部党员大会、支部委员会、党小组会，按时上好党课。', 'zz'],
  ['预备党员转正需要经过哪些程序？', '本人向党组织提出书面转正申请；党小组提出意见；党支部征求党员和群众意见；支委会审查；支部大会讨论表决；报上级党委审批；材料归档。', 'fz'],
  ['请简述党的纪律的主要内容。', '政治纪律、组织纪律、廉洁纪律、群众纪律、工作纪律、生活纪律。', 'jl'],
  ['你为什么要加入中国共产党？', '言之有理即可：端正入党动机，从党的性质、宗旨、理想信念和个人成长等方面阐述。', 'fz'],
];

export interface DemoQuestion {
  type: string;
  stem: string;
  options: string[];
  answer: string;
  analysis: string | null;
  difficulty: string;
  tags: string[];
  score: number;
}

const SCORES: Record<number, number> = { [QuestionType.SINGLE]: 2, [QuestionType.MULTIPLE]: 3, [QuestionType.JUDGE]: 1, [QuestionType.FILL]: 2, [QuestionType.SHORT_ANSWER]: 10 };

function rotate<T>(xs: T[], by: number): T[] {
  const k = by % xs.length;
  return [...xs.slice(k), ...xs.slice(0, k)];
}

/** The demo bank: about three hundred questions of the five types. */
export function demoQuestions(): DemoQuestion[] {
  const out: DemoQuestion[] = [];
  FACTS.forEach(([stem, answer, wrong, tag], i) => {
    const options = rotate([answer, ...wrong], i % 4);
    const letter = 'ABCD'[options.indexOf(answer)];
    const choiceStem = stem.replace('___', '（ ）');
    const difficulty = String((i % 3) + 1);
    out.push({ type: String(QuestionType.SINGLE), stem: choiceStem, options, answer: letter, analysis: `正确答案：${answer}。`, difficulty, tags: [tag], score: SCORES[QuestionType.SINGLE] });
    out.push({ type: String(QuestionType.JUDGE), stem: stem.replace('___', answer), options: [], answer: '正确', analysis: null, difficulty, tags: [tag], score: SCORES[QuestionType.JUDGE] });
    out.push({ type: String(QuestionType.JUDGE), stem: stem.replace('___', wrong[i % 3]), options: [], answer: '错误', analysis: `应为：${answer}。`, difficulty, tags: [tag], score: SCORES[QuestionType.JUDGE] });
    out.push({ type: String(QuestionType.FILL), stem: stem.replace('___', '____'), options: [], answer, analysis: null, difficulty, tags: [tag], score: SCORES[QuestionType.FILL] });
    // A second single-choice form: which statement is right.
    out.push({ type: String(QuestionType.SINGLE), stem: `下列说法正确的是（ ）。`, options: rotate([stem.replace('___', answer), ...wrong.map((w) => stem.replace('___', w))], (i + 1) % 4), answer: 'ABCD'[rotate([0, 1, 2, 3], (i + 1) % 4).indexOf(0)], analysis: `正确答案：${answer}。`, difficulty: '2', tags: [tag], score: SCORES[QuestionType.SINGLE] });
  });
  for (const [stem, options, answer, tag] of MULTIPLE) out.push({ type: String(QuestionType.MULTIPLE), stem, options, answer, analysis: null, difficulty: '2', tags: [tag], score: SCORES[QuestionType.MULTIPLE] });
  for (const [stem, answer, tag] of SHORT) out.push({ type: String(QuestionType.SHORT_ANSWER), stem, options: [], answer, analysis: null, difficulty: '3', tags: [tag], score: SCORES[QuestionType.SHORT_ANSWER] });
  return out;
}

/** `n` questions: the demo bank repeated, stems numbered after the first round (benchmarks). */
export function generateQuestions(n: number): DemoQuestion[] {
  const bank = demoQuestions();
  return Array.from({ length: n }, (_, i) => {
    const q = bank[i % bank.length];
    const round = Math.floor(i / bank.length);
    return round ? { ...q, stem: `${q.stem}（${round + 1}）` } : q;
  });
}
