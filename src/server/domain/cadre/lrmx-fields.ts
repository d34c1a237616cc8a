/** The cadre fields an .lrmx file fills (import, lrmx.ts) and carries (export, lrmx-file.ts), with the dictionary its text is looked up in. */
export const LRMX_FIELDS: { field: string; title: string; tag: string; dict?: string; kind?: 'month' }[] = [
  { field: 'name', title: '姓名', tag: 'XingMing' },
  { field: 'gender', title: '性别', tag: 'XingBie', dict: 'DJ_COMM_XB' },
  { field: 'birthDate', title: '出生日期', tag: 'ChuShengNianYue', kind: 'month' },
  { field: 'ethnicity', title: '民族', tag: 'MinZu', dict: 'DJ_COMM_MZXX' },
  { field: 'nativePlace', title: '籍贯', tag: 'JiGuan' },
  { field: 'birthPlace', title: '出生地', tag: 'ChuShengDi' },
  { field: 'joinPartyDate', title: '入党时间', tag: 'RuDangShiJian', kind: 'month' },
  { field: 'workStartDate', title: '参加工作时间', tag: 'CanJiaGongZuoShiJian', kind: 'month' },
  { field: 'health', title: '健康状况', tag: 'JianKangZhuangKuang' },
  { field: 'title', title: '专业技术职务', tag: 'ZhuanYeJiShuZhiWu', dict: 'GB_JBXX_ZYJSZC' },
  { field: 'speciality', title: '熟悉专业有何专长', tag: 'ShuXiZhuanYeYouHeZhuanChang' },
  { field: 'education', title: '最高学历', tag: 'QuanRiZhiJiaoYu_XueLi', dict: 'GB_JBXX_XL' },
  { field: 'degree', title: '最高学位', tag: 'QuanRiZhiJiaoYu_XueWei', dict: 'GB_JBXX_XW' },
  { field: 'graduatedFrom', title: '毕业院校及专业', tag: 'QuanRiZhiJiaoYu_XueLi_BiYeYuanXiaoXi' },
  { field: 'postTitle', title: '现任职务全称', tag: 'XianRenZhiWu' },
  { field: 'idCard', title: '身份证号', tag: 'ShenFenZheng' },
];
