import { idCardCheckChar } from '../../../shared/validators.js';
import type { Random } from './random.js';

// The most common surnames in China, roughly by frequency (weights are shares in per mille).
const SURNAMES: [string, number][] = [
  ['王', 72], ['李', 72], ['张', 68], ['刘', 54], ['陈', 46], ['杨', 31], ['黄', 23], ['赵', 23], ['吴', 21], ['周', 20],
  ['徐', 13], ['孙', 12], ['马', 12], ['朱', 11], ['胡', 11], ['郭', 10], ['何', 10], ['罗', 9], ['高', 9], ['林', 9],
  ['郑', 7], ['梁', 7], ['谢', 7], ['唐', 7], ['许', 6], ['冯', 6], ['宋', 5], ['邓', 5], ['韩', 5], ['曹', 5],
  ['彭', 5], ['曾', 5], ['肖', 4], ['田', 4], ['董', 4], ['潘', 4], ['袁', 4], ['蔡', 4], ['蒋', 4], ['余', 4],
  ['于', 4], ['杜', 3], ['叶', 3], ['程', 3], ['魏', 3], ['苏', 3], ['吕', 3], ['丁', 3], ['任', 3], ['卢', 3],
  ['姚', 3], ['沈', 3], ['钟', 3], ['姜', 3], ['崔', 3], ['谭', 3], ['陆', 3], ['范', 2], ['汪', 2], ['廖', 2],
  ['石', 2], ['金', 2], ['贾', 2], ['夏', 2], ['韦', 2], ['付', 2], ['方', 2], ['邹', 2], ['熊', 2], ['白', 2],
  ['孟', 2], ['秦', 2], ['邱', 2], ['侯', 2], ['江', 2], ['尹', 2], ['薛', 2], ['闫', 2], ['段', 2], ['雷', 2],
  ['龙', 2], ['黎', 2], ['史', 2], ['陶', 2], ['贺', 2], ['毛', 2], ['郝', 1], ['顾', 1], ['龚', 1], ['邵', 1],
  ['万', 1], ['覃', 1], ['武', 1], ['钱', 1], ['戴', 1], ['严', 1], ['欧阳', 1], ['莫', 1], ['孔', 1], ['向', 1],
];
const MALE_CHARS = '伟强磊军勇杰涛斌超明刚平辉鹏华飞鑫波宇浩凯健俊帆帅旭宁龙林洋峰建国志文博然睿轩晨阳子豪思源天佑家乐一鸣嘉懿宏亮振东永康';
const FEMALE_CHARS = '芳娜敏静丽艳娟霞秀英华玲桂兰萍红梅琳燕雪倩婷慧颖洁佳怡欣悦雨涵梓萱诗雅思琪若曦可馨晓婉清月紫嫣语彤梦瑶';

export function chineseName(rng: Random, male: boolean): string {
  const surname = rng.weighted(SURNAMES);
  const chars = male ? MALE_CHARS : FEMALE_CHARS;
  const given = rng.chance(0.7) ? rng.pick([...chars]) + rng.pick([...chars]) : rng.pick([...chars]);
  return surname + given;
}

// Hunan and neighbouring prefectures: administrative division code and the place name.
const REGIONS: [string, string, number][] = [
  ['430102', '湖南省长沙市芙蓉区', 8], ['430104', '湖南省长沙市岳麓区', 8], ['430121', '湖南省长沙市长沙县', 6],
  ['430202', '湖南省株洲市荷塘区', 6], ['430302', '湖南省湘潭市雨湖区', 5], ['430402', '湖南省衡阳市珠晖区', 6],
  ['430502', '湖南省邵阳市双清区', 5], ['430602', '湖南省岳阳市岳阳楼区', 5], ['430702', '湖南省常德市武陵区', 5],
  ['430802', '湖南省张家界市永定区', 3], ['430902', '湖南省益阳市资阳区', 4], ['431002', '湖南省郴州市北湖区', 4],
  ['431102', '湖南省永州市零陵区', 4], ['431202', '湖南省怀化市鹤城区', 4], ['431302', '湖南省娄底市娄星区', 4],
  ['433101', '湖南省湘西土家族苗族自治州吉首市', 3], ['360102', '江西省南昌市东湖区', 2], ['420102', '湖北省武汉市江岸区', 2],
  ['440106', '广东省广州市天河区', 2], ['500103', '重庆市渝中区', 1], ['450102', '广西壮族自治区南宁市兴宁区', 1],
];

export interface Person {
  name: string;
  /** GB/T 2261.1 code: '1' male, '2' female. */
  gender: '1' | '2';
  birthDate: string;
  idCard: string;
  nativePlace: string;
  /** GB/T 3304 code. */
  ethnicity: string;
  phone: string;
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

export function isoDate(d: Date): string {
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;
}

export function addDays(date: string, days: number): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return isoDate(d);
}

/** A person born between the two years, with a valid 18-digit ID number (GB 11643 checksum) matching birth and gender. */
export function person(rng: Random, bornFrom: number, bornTo: number, usedIds: Set<string>): Person {
  const male = rng.chance(0.52);
  const [region, place] = rng.weighted(REGIONS.map(([code, name, w]) => [[code, name] as const, w] as const));
  const birth = new Date(Date.UTC(rng.int(bornFrom, bornTo), rng.int(0, 11), rng.int(1, 28)));
  const birthDate = isoDate(birth);
  let idCard = '';
  do {
    // Sequence: odd for men, even for women (GB 11643).
    const seq = rng.int(0, 99) * 10 + (male ? rng.pick([1, 3, 5, 7, 9]) : rng.pick([0, 2, 4, 6, 8]));
    const first17 = `${region}${birthDate.replace(/-/g, '')}${pad(seq, 3)}`;
    idCard = first17 + idCardCheckChar(first17);
  } while (usedIds.has(idCard));
  usedIds.add(idCard);
  const ethnicity = rng.weighted([['01', 90], ['15', 3], ['06', 3], ['12', 2], ['18', 1], ['14', 1]] as const); // 汉 土家 苗 侗 瑶 白
  const phone = `1${rng.pick(['3', '5', '7', '8', '9'])}${rng.int(0, 9)}${pad(rng.int(0, 99_999_999), 8)}`;
  return { name: chineseName(rng, male), gender: male ? '1' : '2', birthDate, idCard, nativePlace: place.replace(/^(.+?[省市区])(.+?[市州]).*$/, '$1$2'), ethnicity, phone };
}
