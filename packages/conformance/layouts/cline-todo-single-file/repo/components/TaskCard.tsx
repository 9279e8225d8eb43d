export const TaskCard = () => null;
