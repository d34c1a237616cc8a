/** The years offered by the year selects: next year back to two years ago. */
export const yearOptions = () => {
  const now = new Date().getFullYear();
  return [now + 1, now, now - 1, now - 2].map((y) => ({ value: y, label: `${y}年` }));
};
