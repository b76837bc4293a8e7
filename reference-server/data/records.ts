/** Rows as stored in SQLite; routes turn them into the spec's record shapes (records/*.ts). */

export interface AlertRow {
  id: number;
  title: string;
  content: string;
  datetime: string;
  shorttime: string;
  shijianchuo: number;
  cateid: string;
  catename: string;
  comments: number;
  louzhu: string;
  louzhuregtime: string | null;
  url: string;
  yuanurl: string | null;
  price: number | null;
  /** JSON array of strings. */
  tags: string;
}

export interface ZdmRow {
  id: number;
  title: string;
  price: number;
  mall_name: string;
  brand: string | null;
  category_name: string;
  pic: string;
  posttime: number;
  url: string;
  content: string;
}

export interface ActivityRow {
  id: number;
  name: string;
  desc: string;
  cate: string;
  h5: string;
  pic: string;
  start_time: string;
  end_time: string | null;
}

export interface ActivityCategoryRow {
  id: string;
  name: string;
}

export interface Dataset {
  alerts: AlertRow[];
  zdm: ZdmRow[];
  activities: ActivityRow[];
  activityCategories: ActivityCategoryRow[];
}
